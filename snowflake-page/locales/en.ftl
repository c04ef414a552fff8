# The page in English: every word of it, as snowflake-page renders it (src/lib.rs reads the
# catalogues through src/words.rs).
#
# Rules for every language's file, checked by the page's tests:
# - the same message ids in every file, and the same variables in each message;
# - a message is HTML: it may use <strong>, <em>, <code>, <var>, <sup> and <a href>,
#   nothing else, and writes & < > as &amp; &lt; &gt;;
# - a variable arrives as HTML too, escaped by the page: a number (grouped as the
#   language groups, in <bdi dir="ltr"> so that a right-to-left text keeps its digits in
#   order), a value typed by the reader, or a date from date-time;
# - every figure of the format comes from the runtime as a variable: write none of them;
# - a number that counts something chooses its noun by the language's plural categories
#   (`{ $bits -> [one] ... *[other] ... }`), as CLDR has them: one and other in English,
#   one, two and other in Hebrew (never many, which CLDR 42 merged into other), other alone
#   in Indonesian, whose nouns do not change with a number and so need no selector.

## The page

page-title = Snowflake ID generator: compose and decode 64-bit IDs
page-description = Compose a Twitter-layout Snowflake ID from a timestamp, a datacenter ID, a machine ID and a sequence number, or decode one, and see its 64 bits segment by segment, with the format explained and worked through for your input.
page-heading = Snowflake ID generator
page-lead = A Snowflake ID packs a time, a datacenter, a machine and a sequence number into one 64-bit integer. Type the four values to see how they fill the bits, or decode an ID you already have.
languages = Language

## The form

field-ts = Timestamp
field-ts-hint = in Unix ms or as an RFC 3339 date; blank for now
field-dc = Datacenter ID
field-machine = Machine ID
field-seq = Sequence number
# No-break spaces (U+00A0): a range stays on one line beside its label.
field-range-hint = { $min } to { $max }
compose = Compose
decode = Decode an ID
decode-hint = in decimal digits, or its { $digits } characters of base32
decode-button = Decode
copy = Copy
copied = Copied
selected = Selected

## The result

result-id = ID
result-base32 = Short form (base32):
result-near-epoch = This ID decodes to a time within a day of the Twitter epoch, so it may not be a Snowflake ID at all: Twitter numbered its tweets from 1 until that day, and an auto-increment key looks the same.
result-time = Time
result-ms = { $ms } ms
result-segment = Segment
result-bits = Bits
result-value = Value
result-stale = Fix the fields marked above.
segment-sign = sign
segment-ts = timestamp
segment-dc = datacenter
segment-machine = machine
segment-seq = sequence

## The fields as a sentence names them, in the errors

name-ts = the timestamp
name-dc = the datacenter ID
name-machine = the machine ID
name-seq = the sequence number

## Errors, beside their field: what is wrong, then what is allowed

expected-number = enter a whole number from { $min } to { $max }
expected-ts = enter Unix ms from { $min } to { $max }, or an RFC 3339 date such as { $example }
error-empty = This field is empty; { $expected }.
error-negative = { $text } is negative; { $expected }.
error-plus = { $text } has a plus sign, and only digits are read; { $expected }.
error-fraction = { $text } is not a whole number: here a point marks decimals, and a comma groups thousands; { $expected }.
error-grouping = { $text } has a comma out of place: commas part the digits into groups of three, counted from the right; { $expected }.
error-not-digits = { $text } is not a whole number in decimal digits; { $expected }.
error-too-large = { $text } is larger than 64 bits can hold; { $expected }.
error-out-of-range = { $text } is out of range for { $name }: it holds { $min } to { $max } ({ $bits ->
    [one] { $bits } bit
   *[other] { $bits } bits
}).
error-before-epoch = { $text } is before the Twitter epoch, { $epoch } ({ $epoch-ms } ms): timestamps start there.
error-after-max = { $text } is after { $max } ({ $max-ms } ms), the last time { $bits ->
    [one] { $bits } bit
   *[other] { $bits } bits
} can hold.
error-date-syntax = { $text } is not an RFC 3339 date: character { $position } does not fit; { $expected }.
error-date-part = { $text } is not a real date: the { $part } is { $value }, where { $min } to { $max } is allowed.
date-part = { $part ->
    [month] month
    [day] day
    [hour] hour
    [minute] minute
    [second] second
    [offset-hour] offset's hour
   *[offset-minute] offset's minute
}
error-leap-second = { $text } has second 60, a leap second, which Unix time does not count.
error-finer = { $text } is finer than a millisecond: Snowflake timestamps are whole milliseconds, so digits past the third after the point must be 0.
error-before-1970 = { $text } is before 1970, and so before the Twitter epoch, { $epoch }.
error-other = { $text } is not accepted; { $expected }.
error-id-empty = Enter an ID: in decimal digits, or in the { $digits } characters of its base32 form.
error-id-character = { $character } (character { $position }) is not a digit: a Snowflake ID is written in decimal digits only, or in { $digits } characters of base32.
error-id-too-large = The number is too large: a Snowflake ID is at most { $max }.
error-id-base32-character = { $character } (character { $position }) is not a character of base32: an ID in base32 is written with the digits and the letters A to Z, but not U.
error-id-base32-length = An ID in base32 has { $digits } characters; this one has { $length }.
error-id-base32-too-large = The first character, { $character }, is too large: an ID in base32 is at most { $max }, its first character 0 to { $highest }.

## Dates in the text

date-time = { $day } { $month ->
    [1] January
    [2] February
    [3] March
    [4] April
    [5] May
    [6] June
    [7] July
    [8] August
    [9] September
    [10] October
    [11] November
   *[12] December
} { $year }, { $time } UTC
# A time of day, as the language writes one.
time = { $hour }:{ $minute }:{ $second }.{ $millis }

## The explanation

about-heading = What is a Snowflake ID?
about-text = A Snowflake ID is a unique 64-bit number built from a timestamp, the identity of the machine that made it and a sequence number. Twitter designed the format in { $year } so that every tweet could get an ID from any of many servers at once, without the servers asking each other whether a number was already taken. This page builds one Snowflake ID from the values you type, shows how they fill the 64 bits, and takes apart an ID you already have.

tool-heading = How this page works
tool-intro = The form takes four values:
tool-ts = <strong>Timestamp</strong>: Unix time in milliseconds, or an RFC 3339 date such as { $example }. Leave it blank for the current time.
tool-dc = <strong>Datacenter ID</strong>: a whole number from { $min } to { $max } ({ $bits ->
    [one] { $bits } bit
   *[other] { $bits } bits
}).
tool-machine = <strong>Machine ID</strong>: a whole number from { $min } to { $max } ({ $bits ->
    [one] { $bits } bit
   *[other] { $bits } bits
}). Twitter called it the worker ID.
tool-seq = <strong>Sequence number</strong>: a whole number from { $min } to { $max } ({ $bits ->
    [one] { $bits } bit
   *[other] { $bits } bits
}) that tells apart the IDs made in the same millisecond. Left blank, it is { $min }.
tool-result = The page combines the four values into one 64-bit ID and shows it in binary, cut into its timestamp, datacenter, machine and sequence segments. Paste an existing ID into the decode box and it is taken apart the same way, its values put back into the form.
tool-epoch = Time is counted from a fixed starting point, the Twitter epoch: { $date }, which is { $ms ->
    [one] { $ms } millisecond
   *[other] { $ms } milliseconds
} after the Unix epoch. It cannot be moved: every ID is measured from that one instant.

structure-heading = The structure of a Snowflake ID
structure-intro = A Snowflake ID is a 64-bit integer: a top bit, then four parts, read from the most significant bit down:
structure-caption = The 64 bits of a Snowflake ID, from bit 63 on the left to bit 0 on the right.
structure-bits = { $count ->
    [one] { $count } bit
   *[other] { $count } bits
}
structure-sign = The top bit is always 0, so a Snowflake ID is a positive number even where it is stored as a signed 64-bit integer, such as a BIGINT in SQL.
structure-order = The { $ts-bits }-bit timestamp comes first, above all the other fields, so an ID made later has a larger timestamp segment and sorts after an ID made earlier, whatever its other fields hold. Within one millisecond on one machine, the { $seq-bits }-bit sequence number keeps the IDs in the order they were made.

formula-heading = The formula
formula-intro = The ID is built with this formula:
formula-where = where <var>t</var> is the timestamp in milliseconds, <var>d</var> the delta from the epoch, <var>c</var> the datacenter ID, <var>m</var> the machine ID, <var>s</var> the sequence number and <var>I</var> the finished ID.
formula-shift = <code>&lt;&lt;</code> shifts a number left, bit by bit: shifting it { $ts-shift ->
    [one] { $ts-shift } bit
   *[other] { $ts-shift } bits
} to the left multiplies it by 2<sup>{ $ts-shift }</sup>, that is by { $factor }. The shifts come straight from the widths of the fields: the sequence number is { $seq-bits ->
    [one] { $seq-bits } bit
   *[other] { $seq-bits } bits
} wide, so the machine ID starts at bit { $machine-shift }; the machine ID is { $machine-bits ->
    [one] { $machine-bits } bit
   *[other] { $machine-bits } bits
} wide, so the datacenter ID starts at bit { $dc-shift } ({ $machine-shift } + { $machine-bits }); the datacenter ID is { $dc-bits ->
    [one] { $dc-bits } bit
   *[other] { $dc-bits } bits
} wide, so the timestamp starts at bit { $ts-shift } ({ $dc-shift } + { $dc-bits }).

example-heading = How to compute a Snowflake ID: a worked example
example-seed-intro = Suppose someone enters:
example-intro = Take the values of the form above:
example-ts = Timestamp: { $ts } (exactly { $delta } ms after the Twitter epoch)
example-dc = Datacenter ID: { $dc }
example-machine = Machine ID: { $machine }
example-seq = Sequence number: { $seq }
example-step-1 = <strong>Step 1: find the delta.</strong> Subtract the epoch from the timestamp:
example-step-2 = <strong>Step 2: shift each field into place.</strong>
example-step-3 = <strong>Step 3: combine them with a bitwise OR.</strong> The shifted fields share no bit, so the OR gives the same as their sum:
example-shifted-ts = Timestamp: { $shift }
example-shifted-dc = Datacenter ID: { $shift }
example-shifted-machine = Machine ID: { $shift }
example-shifted-seq = Sequence number: { $shift }
example-result = That is the Snowflake ID for your input, as the result above shows it: { $id }.
example-seed-result = That is the Snowflake ID for this input: { $id }. The page's result box splits an ID's 64 bits back the same way, into a { $ts-bits }-bit timestamp, a { $dc-bits }-bit datacenter ID, a { $machine-bits }-bit machine ID and a { $seq-bits }-bit sequence number, so that the structure of the number stays in sight.
example-yours-heading = Your input, worked through the same way
example-invalid = Correct the fields marked above to see your input worked through here.

uses-heading = Where Snowflake IDs are used
uses-text = Twitter made the format to give tweets unique IDs, roughly in time order, across thousands of database machines, without a central counter that every server would have to ask. Discord and Instagram later adopted similar 64-bit designs for messages and posts, each with its own epoch and layout, so their IDs decode here to the wrong times. The same idea serves database sharding, order numbers in online shops and event logs in distributed applications: wherever many machines hand out IDs on their own and the IDs should still sort roughly by time.

limits-heading = The limits of Snowflake IDs
limits-state = A Snowflake generator in production keeps its own running clock: it raises the sequence number for each ID made within one millisecond, and waits for the next millisecond once the sequence reaches { $max-seq }. This page keeps no state between calculations: it builds one ID from whatever you type, which makes it a tool for learning the format rather than a live ID service. The snowflake-kit library's generator is the live service.
limits-intro = The design itself has fixed limits, whoever implements it:
limits-epoch = <strong>A fixed epoch</strong>: only timestamps from { $epoch } on can be encoded; earlier dates cannot.
limits-ceiling = <strong>A ceiling on time</strong>: the { $bits }-bit timestamp runs out at { $max }. After that, the delta from the epoch no longer fits in { $bits ->
    [one] { $bits } bit
   *[other] { $bits } bits
}.
limits-sequence = <strong>A limit per millisecond</strong>: one machine can issue only { $ids ->
    [one] { $ids } ID
   *[other] { $ids } different IDs
} (0 to { $max-seq }) in the same millisecond.
limits-machines = <strong>A limit on machines</strong>: with { $dc-bits ->
    [one] { $dc-bits } bit
   *[other] { $dc-bits } bits
} for the datacenter ID and { $machine-bits } for the machine ID, a deployment has { $identities ->
    [one] { $identities } machine identity
   *[other] { $identities } machine identities
} ({ $dcs } × { $machines }) to hand out without collisions.
limits-order = <strong>Order that is only local</strong>: IDs from different machines sort correctly by time only as far as their clocks agree; clocks that drift apart can break strict time order.

history-heading = The history of Snowflake IDs
history-text = Twitter announced the Snowflake format in { $year } to replace plain auto-incrementing database IDs, which do not scale across many independent database servers. The name comes from the idea that, like real snowflakes, no two of the IDs are alike. The design was released as open source and copied, with changes, by other large platforms that needed the same thing: unique, sortable IDs made by many machines at the same time.

faq-heading = Questions and answers
faq-what-q = What is a Snowflake ID?
faq-what-a = A 64-bit number made of a timestamp, a machine identity and a sequence number, designed so that many machines can create unique IDs without coordinating with each other.
faq-formula-q = What is the formula for a Snowflake ID?
faq-formula-a = Where the epoch is the fixed starting date ({ $epoch-ms } ms) and <code>&lt;&lt;</code> is a left shift:
faq-epoch-q = Can the epoch be changed on this page?
faq-epoch-a = No. This page always measures time from the fixed Twitter epoch, { $epoch }. There is no field for another starting date.
faq-decode-q = Does this page decode an existing Snowflake ID?
faq-decode-a = Yes. Paste the ID into the decode box: the page shows its time, datacenter ID, machine ID and sequence number, and puts them into the form, so you can change one value and compose again.
faq-rate-q = How many Snowflake IDs can one machine create per millisecond?
faq-rate-a = Up to { $ids }, because the sequence field is { $bits ->
    [one] { $bits } bit
   *[other] { $bits } bits
} wide (values 0 to { $max-seq }).
faq-until-q = Until what year can valid timestamps be encoded?
faq-until-a = Until { $max }. The { $bits }-bit timestamp holds at most about { $years } years counted from the { $year } epoch; after that the value overflows the field.

sources-heading = Sources
source-announcing = “Announcing Snowflake”, the Twitter engineering blog, { $year }.
source-wikipedia = “Snowflake ID”, Wikipedia.
source-code = Twitter’s Snowflake source code, archived on GitHub.
