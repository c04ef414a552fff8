# The page in Hebrew: every word of it, translated from en.ftl, as snowflake-page renders it.
# Where a break would part a day from its month, a time from "UTC" or the two ends of a
# range, the space is a no-break space (U+00A0); in field-range-hint a word joiner
# (U+2060) after the maqaf keeps "from" on the line of its number.
# "Epoch" is ראשית הזמן, the instant a count of time starts from: ראשית הזמן של Twitter,
# and ראשית זמן Unix as Hebrew Wikipedia names Unix's. The seed's תקופה reads "era,
# period", a span of time and not an instant.
# A number that counts something takes its noun's form (one, other) from a selector: סיבית
# אחת, but 5 סיביות; "one" needs no digit, as Hebrew says it.

## The page

page-title = מחולל מזהי Snowflake: הרכבה ופענוח של מזהים באורך 64 סיביות
page-description = הרכיבו מזהה Snowflake במבנה של Twitter מחותמת זמן, ממזהה מרכז נתונים, ממזהה מכונה וממספר רצף, או פענחו מזהה קיים. הדף מציג את 64 הסיביות של המזהה מקטע אחר מקטע, מסביר את המבנה ומראה את החישוב המלא על הערכים שלכם.
page-heading = מחולל מזהי Snowflake
page-lead = מזהה Snowflake מצרף זמן, מרכז נתונים, מכונה ומספר רצף למספר שלם אחד באורך 64 סיביות. הזינו את ארבעת הערכים וראו איך הם ממלאים את הסיביות, או פענחו מזהה שכבר יש לכם.
languages = שפה

## The form

field-ts = חותמת זמן
field-ts-hint = באלפיות שנייה מאז ראשית זמן Unix, או תאריך בתבנית RFC 3339. שדה ריק: הזמן הנוכחי
field-dc = מזהה מרכז נתונים
field-machine = מזהה מכונה
field-seq = מספר רצף
field-range-hint = מ־⁠{ $min } עד { $max }
compose = הרכבה
decode = פענוח מזהה
decode-hint = בספרות עשרוניות, או ב־{ $digits } התווים של צורת base32 שלו
decode-button = פענוח
copy = העתקה
copied = הועתק
selected = סומן

## The result

result-id = מזהה
result-base32 = צורה מקוצרת (base32):
result-near-epoch = המזהה הזה מפוענח לזמן שפחות מיממה אחרי ראשית הזמן של Twitter, ולכן ייתכן שאינו מזהה Snowflake כלל: עד אותו יום מספרה Twitter את הציוצים החל מ־1, ומפתח שגדל אוטומטית נראה בדיוק כך.
result-time = זמן
result-ms = { $ms } אלפיות שנייה
result-segment = מקטע
result-bits = סיביות
result-value = ערך
result-stale = תקנו את השדות המסומנים למעלה.
segment-sign = סימן
segment-ts = חותמת זמן
segment-dc = מרכז נתונים
segment-machine = מכונה
segment-seq = רצף

## The fields as a sentence names them, in the errors

name-ts = חותמת הזמן
name-dc = מזהה מרכז הנתונים
name-machine = מזהה המכונה
name-seq = מספר הרצף

## Errors, beside their field: what is wrong, then what is allowed

expected-number = הזינו מספר שלם מ־{ $min } עד { $max }
expected-ts = הזינו זמן Unix באלפיות שנייה מ־{ $min } עד { $max } או תאריך בתבנית RFC 3339, למשל { $example }
error-empty = השדה ריק. { $expected }.
error-negative = הערך { $text } שלילי. { $expected }.
error-plus = בערך { $text } יש סימן פלוס, אבל מתקבלות ספרות בלבד. { $expected }.
error-fraction = הערך { $text } אינו מספר שלם: כאן הנקודה מסמנת שבר עשרוני, והפסיק מפריד בין אלפים. { $expected }.
error-grouping = בערך { $text } יש פסיק שלא במקומו: פסיקים מחלקים את הספרות לקבוצות של שלוש, שנספרות מימין. { $expected }.
error-not-digits = הערך { $text } אינו מספר שלם שכתוב בספרות עשרוניות. { $expected }.
error-too-large = הערך { $text } גדול מכדי להיכנס ב־64 סיביות. { $expected }.
error-out-of-range = הערך { $text } חורג מהטווח של { $name }: מ־{ $min } עד { $max } ({ $bits ->
    [one] סיבית אחת
   *[other] { $bits } סיביות
}).
error-before-epoch = חותמת הזמן { $text } מוקדמת מדי: הספירה מתחילה בראשית הזמן של Twitter, { $epoch } ({ $epoch-ms ->
    [one] אלפית שנייה אחת
   *[other] { $epoch-ms } אלפיות שנייה
}).
error-after-max = חותמת הזמן { $text } מאוחרת מ־{ $max } ({ $max-ms ->
    [one] אלפית שנייה אחת
   *[other] { $max-ms } אלפיות שנייה
}), הרגע האחרון שאפשר לייצג { $bits ->
    [one] בסיבית אחת
   *[other] ב־{ $bits } סיביות
}.
error-date-syntax = הערך { $text } אינו תאריך בתבנית RFC 3339: התו במיקום { $position } אינו מתאים לתבנית. { $expected }.
error-date-part = התאריך { $text } אינו קיים: ערך { $part } הוא { $value }, והטווח המותר הוא מ־{ $min } עד { $max }.
date-part = { $part ->
    [month] החודש
    [day] היום בחודש
    [hour] השעות
    [minute] הדקות
    [second] השניות
    [offset-hour] שעות ההפרש מ־UTC
   *[offset-minute] דקות ההפרש מ־UTC
}
error-leap-second = בערך { $text } מופיעה השנייה 60, כלומר שנייה מעוברת, וזמן Unix אינו סופר שניות מעוברות.
error-finer = הערך { $text } מדויק יותר מאלפית שנייה. חותמות הזמן של Snowflake הן מספר שלם של אלפיות שנייה, ולכן כל ספרה אחרי הנקודה העשרונית, מהרביעית והלאה, חייבת להיות 0.
error-before-1970 = התאריך { $text } הוא לפני שנת 1970, ולכן גם לפני ראשית הזמן של Twitter, { $epoch }.
error-other = לא ניתן לפרש את הערך { $text }. { $expected }.
error-id-empty = הזינו מזהה: בספרות עשרוניות, או ב־{ $digits } התווים של צורת base32 שלו.
error-id-character = התו { $character } (במיקום { $position }) אינו ספרה: מזהה Snowflake נכתב בספרות עשרוניות בלבד, או ב־{ $digits } תווים של base32.
error-id-too-large = המספר גדול מדי: מזהה Snowflake אינו יכול לעלות על { $max }.
error-id-base32-character = התו { $character } (במיקום { $position }) אינו תו של base32: מזהה ב־base32 נכתב בספרות ובאותיות A עד Z, מלבד U.
error-id-base32-length = למזהה ב־base32 יש { $digits } תווים; לזה יש { $length }.
error-id-base32-too-large = התו הראשון, { $character }, גדול מדי: מזהה ב־base32 הוא לכל היותר { $max }, והתו הראשון שלו בין 0 ל־{ $highest }.

## Dates in the text

date-time = { $day } { $month ->
    [1] בינואר
    [2] בפברואר
    [3] במרץ
    [4] באפריל
    [5] במאי
    [6] ביוני
    [7] ביולי
    [8] באוגוסט
    [9] בספטמבר
    [10] באוקטובר
    [11] בנובמבר
   *[12] בדצמבר
} { $year } בשעה { $time } UTC
# A time of day, as the language writes one.
time = { $hour }:{ $minute }:{ $second }.{ $millis }

## The explanation

about-heading = מהו מזהה Snowflake?
about-text = מזהה Snowflake הוא מספר ייחודי באורך 64 סיביות שמורכב מחותמת זמן, מהזהות של המכונה שיצרה אותו וממספר רצף. Twitter תכננה את התבנית ב־{ $year }, כדי ששרתים רבים יוכלו להקצות מזהים לציוצים במקביל, בלי ששרת אחד יצטרך לברר אצל האחרים אם מספר כלשהו כבר נתפס. בדף הזה אפשר להרכיב מזהה Snowflake מהערכים שתזינו, לראות איך הם ממלאים את 64 הסיביות, וגם לפרק לחלקיו מזהה שכבר יש לכם.

tool-heading = איך הדף עובד
tool-intro = הטופס מקבל ארבעה ערכים:
tool-ts = <strong>חותמת זמן</strong>: זמן Unix באלפיות שנייה, או תאריך בתבנית RFC 3339, למשל { $example }. שדה ריק פירושו הזמן הנוכחי.
tool-dc = <strong>מזהה מרכז נתונים</strong>: מספר שלם מ־{ $min } עד { $max } ({ $bits ->
    [one] סיבית אחת
   *[other] { $bits } סיביות
}).
tool-machine = <strong>מזהה מכונה</strong>: מספר שלם מ־{ $min } עד { $max } ({ $bits ->
    [one] סיבית אחת
   *[other] { $bits } סיביות
}). ב־Twitter קראו לו "מזהה העובד" (<code>workerId</code> בקוד המקורי).
tool-seq = <strong>מספר רצף</strong>: מספר שלם מ־{ $min } עד { $max } ({ $bits ->
    [one] סיבית אחת
   *[other] { $bits } סיביות
}), שמבדיל בין המזהים שנוצרים באותה אלפית שנייה. אם משאירים אותו ריק, ערכו { $min }.
tool-result = מארבעת הערכים הדף מרכיב מזהה אחד באורך 64 סיביות ומציג אותו בייצוג בינארי, מחולק למקטעים: חותמת זמן, מרכז נתונים, מכונה ורצף. מזהה קיים שתדביקו בתיבת הפענוח יפורק באותה צורה, וערכיו ייכנסו בחזרה לשדות הטופס.
tool-epoch = את הזמן סופרים מנקודת התחלה קבועה שנקראת ראשית הזמן של Twitter: { $date }, כלומר { $ms ->
    [one] אלפית שנייה אחת
   *[other] { $ms } אלפיות שנייה
} אחרי ראשית זמן Unix. את הנקודה הזו אי אפשר להזיז, וכל מזהה נמדד ממנה.

structure-heading = המבנה של מזהה Snowflake
structure-intro = מזהה Snowflake הוא מספר שלם באורך 64 סיביות: סיבית עליונה, ואחריה ארבעה שדות. הנה הם, מהסיבית המשמעותית ביותר ומטה:
structure-caption = הסיביות של מזהה Snowflake מסודרות משמאל לימין, כמו ספרות של מספר: סיבית 63 בקצה השמאלי וסיבית 0 בקצה הימני.
structure-bits = { $count ->
    [one] סיבית אחת
   *[other] { $count } סיביות
}
structure-sign = הסיבית העליונה תמיד שווה ל־0. לכן המזהה חיובי גם כששומרים אותו כמספר שלם עם סימן באורך 64 סיביות, למשל בעמודת BIGINT ב־SQL.
structure-order = חותמת הזמן ({ $ts-bits ->
    [one] סיבית אחת
   *[other] { $ts-bits } סיביות
}) יושבת בסיביות הגבוהות, מעל כל שאר השדות. לכן מזהה שנוצר מאוחר יותר מכיל ערך גדול יותר בחותמת הזמן, וממוין אחרי מזהים קודמים, בלי קשר לשאר השדות. בתוך אותה אלפית שנייה ובאותה מכונה, מספר הרצף ({ $seq-bits ->
    [one] סיבית אחת
   *[other] { $seq-bits } סיביות
}) שומר על המזהים מסודרים לפי סדר היצירה.

formula-heading = הנוסחה
formula-intro = כך מחשבים את המזהה:
formula-where = כאשר <var>t</var> היא חותמת הזמן באלפיות שנייה, <var>d</var> ההפרש מראשית הזמן, <var>c</var> מזהה מרכז הנתונים, <var>m</var> מזהה המכונה, <var>s</var> מספר הרצף ו־<var>I</var> המזהה שמתקבל.
formula-shift = האופרטור <code>&lt;&lt;</code> מזיז את הסיביות של מספר שמאלה. הזזה { $ts-shift ->
    [one] במקום אחד
   *[other] ב־{ $ts-shift } מקומות
} כופלת את המספר ב־2<sup>{ $ts-shift }</sup>, כלומר ב־{ $factor }. כל שדה מוזז לפי סכום הרוחבים של השדות שמתחתיו: מספר הרצף תופס { $seq-bits ->
    [one] סיבית אחת
   *[other] { $seq-bits } סיביות
}, ולכן מזהה המכונה מתחיל בסיבית { $machine-shift }; מזהה המכונה תופס { $machine-bits ->
    [one] סיבית אחת
   *[other] { $machine-bits } סיביות
}, ולכן מזהה מרכז הנתונים מתחיל בסיבית { $dc-shift } ({ $machine-shift } ועוד { $machine-bits }); מזהה מרכז הנתונים תופס { $dc-bits ->
    [one] סיבית אחת
   *[other] { $dc-bits } סיביות
}, ולכן חותמת הזמן מתחילה בסיבית { $ts-shift } ({ $dc-shift } ועוד { $dc-bits }).

example-heading = איך מחשבים מזהה Snowflake: דוגמה מפורטת
example-seed-intro = נניח שמישהו מזין:
example-intro = נתחיל מהערכים שבטופס למעלה:
example-ts = חותמת זמן: { $ts } (בדיוק { $delta ->
    [one] אלפית שנייה אחת
   *[other] { $delta } אלפיות שנייה
} אחרי ראשית הזמן של Twitter)
example-dc = מזהה מרכז נתונים: { $dc }
example-machine = מזהה מכונה: { $machine }
example-seq = מספר רצף: { $seq }
example-step-1 = <strong>שלב 1: מחשבים את ההפרש.</strong> מפחיתים מחותמת הזמן את ראשית הזמן:
example-step-2 = <strong>שלב 2: מזיזים כל שדה אל הסיביות שלו.</strong>
example-step-3 = <strong>שלב 3: מצרפים את השדות בפעולת OR ברמת הסיבית.</strong> השדות המוזזים אינם חופפים באף סיבית, ולכן תוצאת ה־OR שווה לסכום שלהם:
example-shifted-ts = חותמת זמן: { $shift }
example-shifted-dc = מזהה מרכז נתונים: { $shift }
example-shifted-machine = מזהה מכונה: { $shift }
example-shifted-seq = מספר רצף: { $shift }
example-result = זהו מזהה Snowflake שמתקבל מהערכים שלכם, כמו בתיבת התוצאה למעלה: { $id }.
example-seed-result = זהו מזהה Snowflake שמתקבל מהערכים האלה: { $id }. תיבת התוצאה של הדף מחלקת את 64 הסיביות של מזהה בחזרה באותה דרך: לחותמת זמן באורך { $ts-bits ->
    [one] סיבית אחת
   *[other] { $ts-bits } סיביות
}, למזהה מרכז נתונים באורך { $dc-bits ->
    [one] סיבית אחת
   *[other] { $dc-bits } סיביות
}, למזהה מכונה באורך { $machine-bits ->
    [one] סיבית אחת
   *[other] { $machine-bits } סיביות
} ולמספר רצף באורך { $seq-bits ->
    [one] סיבית אחת
   *[other] { $seq-bits } סיביות
}, וכך רואים בבירור את מבנה המספר.
example-yours-heading = החישוב המלא על הערכים שלכם
example-invalid = תקנו את השדות המסומנים למעלה, ואז יוצג כאן החישוב המלא על הערכים שלכם.

uses-heading = שימושים של מזהי Snowflake
uses-text = Twitter הגתה את התבנית כדי שכל ציוץ יקבל מזהה ייחודי, מסודר פחות או יותר לפי הזמן, גם כשהמזהים נוצרים באלפי מכונות של מסדי נתונים ואין מונה מרכזי שכל השרתים תלויים בו. בהמשך אימצו Discord ו־Instagram תבניות דומות של 64 סיביות להודעות ולפוסטים, אבל כל אחת עם ראשית זמן ומבנה משלה, ולכן פענוח המזהים שלהן בדף הזה ייתן זמנים שגויים. הרעיון מתאים גם לפיצול מסדי נתונים בין שרתים, למספרי הזמנות בחנויות מקוונות וליומני אירועים במערכות מבוזרות: לכל מצב שבו מכונות רבות מנפיקות מזהים באופן עצמאי, ועדיין רוצים למיין אותם, בקירוב, לפי הזמן.

limits-heading = המגבלות של מזהי Snowflake
limits-state = מחולל Snowflake שפועל במערכת אמיתית עוקב כל הזמן אחרי השעון שלו: לכל מזהה נוסף באותה אלפית שנייה הוא מעלה את מספר הרצף, וכשהרצף מגיע ל־{ $max-seq } הוא מחכה לאלפית השנייה הבאה. הדף הזה לא זוכר דבר בין חישוב לחישוב. הוא בונה מזהה יחיד ממה שהזנתם, ולכן הוא כלי להבנת התבנית ולא שירות להנפקת מזהים. להנפקת מזהים בפועל משמש המחולל של ספריית snowflake-kit.
limits-intro = ויש מגבלות שנובעות מהתכנון עצמו, בכל מימוש שהוא:
limits-epoch = <strong>ראשית זמן קבועה</strong>: אפשר לקודד רק רגעים החל מ־{ $epoch }. לזמן מוקדם יותר אין ייצוג.
limits-ceiling = <strong>תקרת זמן</strong>: חותמת זמן באורך { $bits ->
    [one] סיבית אחת
   *[other] { $bits } סיביות
} מגיעה לערכה המרבי ב־{ $max }. אחרי הרגע הזה ההפרש מראשית הזמן כבר דורש { $bits ->
    [one] יותר מסיבית אחת
   *[other] יותר מ־{ $bits } סיביות
}.
limits-sequence = <strong>תקרה בכל אלפית שנייה</strong>: מכונה אחת מנפיקה באלפית שנייה לכל היותר { $ids ->
    [one] מזהה אחד
   *[other] { $ids } מזהים שונים
}, עם מספרי רצף מ־0 עד { $max-seq }.
limits-machines = <strong>מספר מכונות מוגבל</strong>: { $dc-bits ->
    [one] כשסיבית אחת מוקצית
   *[other] כש־{ $dc-bits } סיביות מוקצות
} למזהה מרכז הנתונים ו־{ $machine-bits } למזהה המכונה, יש בסך הכול { $identities ->
    [one] זהות מכונה אחת
   *[other] { $identities } זהויות מכונה
} ({ $dcs } × { $machines }) שאפשר לחלק בלי התנגשויות.
limits-order = <strong>סדר מקומי בלבד</strong>: מזהים ממכונות שונות מסודרים נכון לפי הזמן רק עד כמה שהשעונים שלהן מסונכרנים. כשהשעונים מתרחקים זה מזה, הסדר הכרונולוגי המדויק עלול להישבר.

history-heading = תולדות מזהי Snowflake
history-text = Twitter הכריזה על Snowflake ב־{ $year }, כתחליף למזהים הפשוטים שמסד נתונים מקצה במספור עולה אוטומטי, שיטה שאינה מתאימה למערכת עם שרתי מסד נתונים רבים ועצמאיים. השם רומז לפתיתי שלג: כמו שאין שני פתיתים זהים, כך אין שני מזהים זהים. התכנון פורסם כקוד פתוח, ופלטפורמות גדולות אחרות אימצו אותו בגרסאות משלהן: גם הן היו צריכות מזהים ייחודיים שאפשר למיין ושמכונות רבות יוצרות במקביל.

faq-heading = שאלות ותשובות
faq-what-q = מהו מזהה Snowflake?
faq-what-a = מספר באורך 64 סיביות שמשלב חותמת זמן, זהות של מכונה ומספר רצף. בזכות המבנה הזה מכונות רבות יכולות ליצור מזהים ייחודיים, כל אחת בנפרד, בלי שום תיאום ביניהן.
faq-formula-q = מהי הנוסחה לחישוב מזהה Snowflake?
faq-formula-a = בנוסחה הבאה <code>epoch</code> הוא ראשית הזמן, תאריך ההתחלה הקבוע ({ $epoch-ms ->
    [one] אלפית שנייה אחת
   *[other] { $epoch-ms } אלפיות שנייה
}), ו־<code>&lt;&lt;</code> מסמן הזזה של הסיביות שמאלה:
faq-epoch-q = אפשר לבחור בדף הזה ראשית זמן אחרת?
faq-epoch-a = לא. הדף סופר את הזמן תמיד מראשית הזמן של Twitter, { $epoch }, ואין בו שדה לנקודת התחלה אחרת.
faq-decode-q = אפשר לפענח כאן מזהה Snowflake קיים?
faq-decode-a = כן. הדביקו את המזהה בתיבת הפענוח, והדף יציג את הזמן שלו, את מזהה מרכז הנתונים, את מזהה המכונה ואת מספר הרצף, ויכניס אותם לשדות הטופס. כך אפשר לשנות ערך אחד ולהרכיב את המזהה מחדש.
faq-rate-q = כמה מזהי Snowflake מכונה אחת מסוגלת לייצר בכל אלפית שנייה?
faq-rate-a = לכל היותר { $ids }: לשדה הרצף יש { $bits ->
    [one] סיבית אחת
   *[other] { $bits } סיביות
}, ולכן הוא מקבל ערכים מ־0 עד { $max-seq }.
faq-until-q = עד איזו שנה אפשר לקודד חותמת זמן תקינה?
faq-until-a = עד { $max }. חותמת זמן באורך { $bits ->
    [one] סיבית אחת
   *[other] { $bits } סיביות
} מספיקה לכ־{ $years } שנים מראשית הזמן, שחלה ב־{ $year }; אחר כך הערך כבר גדול מדי לשדה.

sources-heading = מקורות
source-announcing = "הכרזה על Snowflake", רשומה בבלוג ההנדסי של Twitter (באנגלית), { $year }.
source-wikipedia = הערך "Snowflake ID" בוויקיפדיה האנגלית.
source-code = קוד המקור של Snowflake מבית Twitter, בארכיון ב־GitHub.
