# Halaman dalam bahasa Indonesia: setiap katanya, sebagaimana snowflake-page menampilkannya;
# aturannya ada di kepala en.ftl. Kata benda Indonesia tidak berubah bentuk karena bilangan
# (CLDR hanya mengenal kategori other), jadi tidak ada pesan di sini yang memilih bentuk jamak.

## The page

page-title = Generator ID Snowflake: buat dan dekode ID 64-bit
page-description = Buat ID Snowflake dengan susunan bit Twitter dari stempel waktu, ID pusat data, ID mesin, dan nomor urutan, atau dekode ID yang sudah ada, lalu lihat seluruh 64 bitnya segmen demi segmen, lengkap dengan penjelasan format dan perhitungan langkah demi langkah untuk masukan Anda.
page-heading = Generator ID Snowflake
page-lead = ID Snowflake memadatkan waktu, pusat data, mesin, dan nomor urutan ke dalam satu bilangan bulat 64-bit. Ketikkan keempat nilai itu untuk melihat bagaimana semuanya mengisi bit-bit ID, atau dekode ID yang sudah Anda miliki.
languages = Bahasa

## The form

field-ts = Stempel waktu
field-ts-hint = dalam milidetik Unix atau tanggal RFC 3339; kosongkan untuk waktu saat ini
field-dc = ID pusat data
field-machine = ID mesin
field-seq = Nomor urutan
field-range-hint = { $min } hingga { $max }
compose = Buat
decode = Dekode ID
decode-hint = dalam digit desimal, atau { $digits } karakter base32-nya
decode-button = Dekode
copy = Salin
copied = Tersalin
selected = Terpilih

## The result

result-id = ID
result-base32 = Bentuk pendek (base32):
result-near-epoch = ID ini terurai ke waktu yang kurang dari sehari setelah epoch Twitter, jadi mungkin sama sekali bukan ID Snowflake: sampai hari itu Twitter memberi nomor tweet mulai dari 1, dan kunci auto-increment juga tampak seperti ini.
result-time = Waktu
result-ms = { $ms } md
result-segment = Segmen
result-bits = Bit
result-value = Nilai
result-stale = Perbaiki kolom yang ditandai di atas.
segment-sign = tanda
segment-ts = stempel waktu
segment-dc = pusat data
segment-machine = mesin
segment-seq = urutan

## The fields as a sentence names them, in the errors

name-ts = stempel waktu
name-dc = ID pusat data
name-machine = ID mesin
name-seq = nomor urutan

## Errors, beside their field: what is wrong, then what is allowed

expected-number = masukkan bilangan bulat dari { $min } hingga { $max }
expected-ts = masukkan waktu Unix dalam milidetik dari { $min } hingga { $max }, atau tanggal RFC 3339 seperti { $example }
error-empty = Kolom ini kosong; { $expected }.
error-negative = { $text } bernilai negatif; { $expected }.
error-plus = { $text } memuat tanda plus, padahal hanya digit yang dibaca; { $expected }.
error-fraction = { $text } bukan bilangan bulat: di sini koma menandai desimal, dan titik memisahkan ribuan; { $expected }.
error-grouping = { $text } memuat titik di tempat yang salah: titik memisahkan digit menjadi kelompok tiga angka, dihitung dari kanan; { $expected }.
error-not-digits = { $text } bukan bilangan bulat yang ditulis dengan digit desimal; { $expected }.
error-too-large = { $text } terlalu besar untuk muat dalam 64 bit; { $expected }.
error-out-of-range = { $text } berada di luar rentang { $name }, yaitu { $min } hingga { $max } ({ $bits } bit).
error-before-epoch = { $text } jatuh sebelum epoch Twitter, { $epoch } ({ $epoch-ms } md): stempel waktu Snowflake dihitung mulai dari titik itu.
error-after-max = { $text } jatuh setelah { $max } ({ $max-ms } md), saat terakhir yang masih muat dalam { $bits } bit.
error-date-syntax = { $text } bukan tanggal RFC 3339: karakter ke-{ $position } tidak sesuai; { $expected }.
error-date-part = { $text } tidak mungkin ada: nilai { $part } ({ $value }) berada di luar rentang { $min } hingga { $max }.
date-part = { $part ->
    [month] bulan
    [day] tanggal
    [hour] jam
    [minute] menit
    [second] detik
    [offset-hour] jam pada selisih terhadap UTC
   *[offset-minute] menit pada selisih terhadap UTC
}
error-leap-second = { $text } memuat detik bernilai 60, yaitu detik kabisat, yang tidak dihitung dalam waktu Unix.
error-finer = { $text } lebih rinci daripada milidetik: stempel waktu Snowflake berupa milidetik bulat, jadi semua digit sesudah digit ketiga di belakang titik harus 0.
error-before-1970 = { $text } jatuh sebelum tahun 1970, sehingga juga sebelum epoch Twitter, { $epoch }.
error-other = { $text } tidak dapat diterima; { $expected }.
error-id-empty = Masukkan ID: dalam digit desimal, atau dalam { $digits } karakter bentuk base32-nya.
error-id-character = { $character } (karakter ke-{ $position }) bukan digit: ID Snowflake ditulis hanya dengan digit desimal, atau dengan { $digits } karakter base32.
error-id-too-large = Bilangan ini terlalu besar: nilai ID Snowflake paling besar { $max }.
error-id-base32-character = { $character } (karakter ke-{ $position }) bukan karakter base32: ID dalam base32 ditulis dengan digit dan huruf A sampai Z, kecuali U.
error-id-base32-length = ID dalam base32 terdiri atas { $digits } karakter; yang ini { $length }.
error-id-base32-too-large = Karakter pertama, { $character }, terlalu besar: ID dalam base32 paling besar { $max }, dengan karakter pertama 0 sampai { $highest }.

## Dates in the text

date-time = { $day } { $month ->
    [1] Januari
    [2] Februari
    [3] Maret
    [4] April
    [5] Mei
    [6] Juni
    [7] Juli
    [8] Agustus
    [9] September
    [10] Oktober
    [11] November
   *[12] Desember
} { $year }, pukul { $time } UTC
# A time of day, as the language writes one.
time = { $hour }.{ $minute }.{ $second },{ $millis }

## The explanation

about-heading = Apa itu ID Snowflake?
about-text = ID Snowflake adalah bilangan 64-bit yang unik, tersusun dari stempel waktu, identitas mesin yang membuatnya, dan nomor urutan. Twitter merancang format ini pada { $year } agar setiap cuitan dapat memperoleh ID dari salah satu di antara banyak server yang bekerja bersamaan, tanpa server-server itu perlu saling bertanya apakah suatu angka sudah terpakai. Halaman ini menyusun satu ID Snowflake dari nilai yang Anda ketik, memperlihatkan cara nilai-nilai itu mengisi 64 bit, dan mengurai ID yang sudah Anda miliki.

tool-heading = Cara kerja halaman ini
tool-intro = Formulir ini menerima empat nilai:
tool-ts = <strong>Stempel waktu</strong>: waktu Unix dalam milidetik, atau tanggal RFC 3339 seperti { $example }. Kosongkan untuk memakai waktu saat ini.
tool-dc = <strong>ID pusat data</strong>: bilangan bulat dari { $min } hingga { $max } ({ $bits } bit).
tool-machine = <strong>ID mesin</strong>: bilangan bulat dari { $min } hingga { $max } ({ $bits } bit). Twitter menamainya <em>worker ID</em> (ID pekerja).
tool-seq = <strong>Nomor urutan</strong>: bilangan bulat dari { $min } hingga { $max } ({ $bits } bit) yang membedakan ID yang dibuat dalam milidetik yang sama. Jika dikosongkan, nilainya { $min }.
tool-result = Halaman ini menggabungkan keempat nilai menjadi satu ID 64-bit dan menampilkannya dalam bentuk biner, dibagi menjadi segmen stempel waktu, pusat data, mesin, dan urutan. Jika Anda menempelkan ID yang sudah ada ke kotak dekode, ID itu diurai dengan cara yang sama dan nilai-nilainya dimasukkan kembali ke formulir.
tool-epoch = Waktu dihitung dari titik awal yang tetap, yaitu epoch Twitter: { $date }, atau { $ms } milidetik setelah epoch Unix. Titik awal ini tidak dapat digeser: setiap ID diukur dari saat yang sama itu.

structure-heading = Struktur ID Snowflake
structure-intro = ID Snowflake adalah bilangan bulat 64-bit: satu bit teratas, lalu empat bagian, dibaca dari bit paling signifikan ke bawah:
structure-caption = Seluruh 64 bit ID Snowflake, dari bit 63 di sebelah kiri sampai bit 0 di sebelah kanan.
structure-bits = { $count ->
    [one] { $count } bit
   *[other] { $count } bit
}
structure-sign = Bit teratas selalu 0, sehingga ID Snowflake tetap berupa bilangan positif meskipun disimpan sebagai bilangan bulat 64-bit bertanda, misalnya BIGINT dalam SQL.
structure-order = Stempel waktu { $ts-bits }-bit menempati bagian teratas, di atas semua kolom lain, sehingga ID yang dibuat belakangan memiliki segmen stempel waktu yang lebih besar dan terurut sesudah ID yang dibuat lebih awal, apa pun isi kolom lainnya. Dalam milidetik yang sama pada satu mesin, nomor urutan { $seq-bits }-bit menjaga ID tetap berurutan sesuai waktu pembuatannya.

formula-heading = Rumus
formula-intro = ID disusun dengan rumus berikut:
formula-where = dengan <var>t</var> sebagai stempel waktu dalam milidetik, <var>d</var> sebagai delta dari epoch, <var>c</var> sebagai ID pusat data, <var>m</var> sebagai ID mesin, <var>s</var> sebagai nomor urutan, dan <var>I</var> sebagai ID yang sudah jadi.
formula-shift = <code>&lt;&lt;</code> adalah pergeseran bit ke kiri: setiap bit bilangan berpindah ke kiri, dan menggeser bilangan { $ts-shift } bit ke kiri sama dengan mengalikannya dengan 2<sup>{ $ts-shift }</sup>, yaitu { $factor }. Besar pergeseran itu langsung mengikuti lebar kolom: nomor urutan lebarnya { $seq-bits } bit, sehingga ID mesin dimulai pada bit { $machine-shift }; ID mesin lebarnya { $machine-bits } bit, sehingga ID pusat data dimulai pada bit { $dc-shift } ({ $machine-shift } + { $machine-bits }); ID pusat data lebarnya { $dc-bits } bit, sehingga stempel waktu dimulai pada bit { $ts-shift } ({ $dc-shift } + { $dc-bits }).

example-heading = Cara menghitung ID Snowflake: contoh terperinci
example-seed-intro = Misalkan seseorang memasukkan:
example-intro = Ambil nilai dari formulir di atas:
example-ts = Stempel waktu: { $ts } (tepat { $delta } md setelah epoch Twitter)
example-dc = ID pusat data: { $dc }
example-machine = ID mesin: { $machine }
example-seq = Nomor urutan: { $seq }
example-step-1 = <strong>Langkah 1: cari delta.</strong> Kurangi stempel waktu dengan epoch:
example-step-2 = <strong>Langkah 2: geser setiap kolom ke posisinya.</strong>
example-step-3 = <strong>Langkah 3: gabungkan semuanya dengan OR bitwise.</strong> Tidak ada dua kolom hasil pergeseran yang menempati bit yang sama, sehingga hasil OR sama dengan hasil penjumlahannya:
example-shifted-ts = Stempel waktu: { $shift }
example-shifted-dc = ID pusat data: { $shift }
example-shifted-machine = ID mesin: { $shift }
example-shifted-seq = Nomor urutan: { $shift }
example-result = Itulah ID Snowflake untuk masukan Anda, sama dengan yang ditampilkan hasil di atas: { $id }.
example-seed-result = Itulah ID Snowflake untuk masukan ini: { $id }. Tampilan hasil di halaman ini membagi kembali 64 bit sebuah ID dengan cara yang sama, menjadi blok stempel waktu { $ts-bits }-bit, blok pusat data { $dc-bits }-bit, blok mesin { $machine-bits }-bit, dan blok urutan { $seq-bits }-bit, sehingga struktur bilangan itu tetap terlihat.
example-yours-heading = Masukan Anda, dihitung dengan cara yang sama
example-invalid = Perbaiki kolom yang ditandai di atas agar perhitungan untuk masukan Anda dapat ditampilkan di sini.

uses-heading = Di mana ID Snowflake digunakan
uses-text = Twitter membuat format ini untuk memberi setiap cuitan ID yang unik dan kurang lebih berurutan menurut waktu, di ribuan mesin basis data, tanpa penghitung pusat yang harus ditanyai oleh setiap server. Discord dan Instagram kemudian memakai rancangan 64-bit serupa untuk pesan dan unggahan, masing-masing dengan epoch dan susunan bitnya sendiri, sehingga ID mereka menunjukkan waktu yang salah jika didekode di sini. Gagasan yang sama dipakai untuk partisi horizontal (<em>sharding</em>) basis data, nomor pesanan di toko daring, dan log peristiwa dalam aplikasi terdistribusi, yaitu setiap kali banyak mesin membagikan ID secara mandiri, tetapi ID itu tetap harus dapat diurutkan kurang lebih menurut waktu.

limits-heading = Batasan ID Snowflake
limits-state = Generator Snowflake di lingkungan produksi terus memantau jam dan mengingat keadaannya: generator itu menaikkan nomor urutan untuk setiap ID yang dibuat dalam milidetik yang sama, lalu menunggu milidetik berikutnya begitu nomor urutan mencapai { $max-seq }. Halaman ini tidak menyimpan keadaan apa pun di antara dua perhitungan: setiap ID disusun hanya dari apa yang Anda ketik, sehingga halaman ini lebih tepat disebut alat untuk mempelajari format daripada layanan penerbit ID yang sesungguhnya. Peran itu dijalankan oleh generator dalam pustaka snowflake-kit.
limits-intro = Rancangan ini sendiri memiliki batas-batas tetap, siapa pun yang mengimplementasikannya:
limits-epoch = <strong>Epoch yang tetap</strong>: hanya waktu sejak { $epoch } yang dapat dikodekan; tanggal yang lebih awal tidak dapat dikodekan.
limits-ceiling = <strong>Batas atas waktu</strong>: stempel waktu { $bits }-bit habis pada { $max }. Setelah itu, delta dari epoch tidak lagi muat dalam { $bits } bit.
limits-sequence = <strong>Batas per milidetik</strong>: dalam milidetik yang sama, satu mesin hanya dapat menerbitkan { $ids } ID yang berbeda (0 hingga { $max-seq }).
limits-machines = <strong>Batas jumlah mesin</strong>: dengan { $dc-bits } bit untuk ID pusat data dan { $machine-bits } bit untuk ID mesin, satu penerapan memiliki { $identities } identitas mesin ({ $dcs } × { $machines }) yang dapat dibagikan tanpa benturan.
limits-order = <strong>Urutan yang hanya berlaku lokal</strong>: ID dari mesin yang berbeda hanya terurut dengan benar menurut waktu sejauh jam mesin-mesin itu selaras; jam yang saling menyimpang dapat merusak urutan waktu yang ketat.

history-heading = Sejarah ID Snowflake
history-text = Twitter mengumumkan format Snowflake pada { $year } untuk menggantikan ID basis data yang sekadar bertambah otomatis, cara yang tidak dapat diskalakan ke banyak server basis data yang berdiri sendiri-sendiri. Namanya berasal dari gagasan bahwa, seperti kepingan salju sungguhan, tidak ada dua ID yang sama. Rancangan ini dirilis sebagai sumber terbuka dan kemudian ditiru, dengan berbagai perubahan, oleh platform besar lain yang membutuhkan hal serupa: ID unik yang dapat diurutkan dan dibuat oleh banyak mesin pada saat bersamaan.

faq-heading = Tanya jawab
faq-what-q = Apa itu ID Snowflake?
faq-what-a = Bilangan 64-bit yang terdiri atas stempel waktu, identitas mesin, dan nomor urutan, yang dirancang agar banyak mesin dapat membuat ID unik tanpa perlu berkoordinasi satu sama lain.
faq-formula-q = Apa rumus ID Snowflake?
faq-formula-a = Berikut rumusnya, dengan epoch sebagai tanggal awal yang tetap ({ $epoch-ms } md) dan <code>&lt;&lt;</code> sebagai pergeseran bit ke kiri:
faq-epoch-q = Bisakah epoch diubah di halaman ini?
faq-epoch-a = Tidak. Halaman ini selalu mengukur waktu dari epoch Twitter yang tetap, { $epoch }. Tidak ada kolom untuk tanggal awal yang lain.
faq-decode-q = Apakah halaman ini dapat mendekode ID Snowflake yang sudah ada?
faq-decode-a = Ya. Tempelkan ID ke kotak dekode: halaman ini menampilkan waktu, ID pusat data, ID mesin, dan nomor urutannya, lalu memasukkan nilai-nilai itu ke formulir, sehingga Anda dapat mengubah salah satunya dan membuat ID lagi.
faq-rate-q = Berapa banyak ID Snowflake yang dapat dibuat satu mesin per milidetik?
faq-rate-a = Hingga { $ids }, karena kolom urutan lebarnya { $bits } bit (nilai 0 hingga { $max-seq }).
faq-until-q = Sampai tahun berapa stempel waktu yang valid dapat dikodekan?
faq-until-a = Sampai { $max }. Stempel waktu { $bits }-bit hanya cukup untuk sekitar { $years } tahun, dihitung dari epoch tahun { $year }; setelah itu nilainya meluap dari kolom.

sources-heading = Sumber
source-announcing = “Announcing Snowflake”, blog teknik Twitter, { $year }.
source-wikipedia = “Snowflake ID”, Wikipedia.
source-code = Kode sumber Snowflake milik Twitter, diarsipkan di GitHub.
