/**
 * Country names for `country:`: each ISO 3166-1 alpha-2 code with its English short name and
 * other names GeoIP databases and people use for it (written here from the public standard's
 * list of codes; `XK`, Kosovo, is a user-assigned code that GeoIP databases use). A name is
 * matched case-insensitively (ASCII letters); names with accents are listed with and without.
 */

/** `CODE Name|Other name|…`, one country a line. */
const TABLE = `
AD Andorra
AE United Arab Emirates|UAE|Emirates
AF Afghanistan
AG Antigua and Barbuda
AI Anguilla
AL Albania
AM Armenia
AO Angola
AQ Antarctica
AR Argentina
AS American Samoa
AT Austria
AU Australia
AW Aruba
AX Åland Islands|Aland Islands|Åland|Aland
AZ Azerbaijan
BA Bosnia and Herzegovina|Bosnia
BB Barbados
BD Bangladesh
BE Belgium
BF Burkina Faso
BG Bulgaria
BH Bahrain
BI Burundi
BJ Benin
BL Saint Barthélemy|Saint Barthelemy|St Barthelemy
BM Bermuda
BN Brunei Darussalam|Brunei
BO Bolivia|Plurinational State of Bolivia
BQ Bonaire, Sint Eustatius and Saba|Bonaire, Sint Eustatius, and Saba|Caribbean Netherlands|Bonaire
BR Brazil
BS Bahamas|The Bahamas
BT Bhutan
BV Bouvet Island
BW Botswana
BY Belarus
BZ Belize
CA Canada
CC Cocos (Keeling) Islands|Cocos Islands
CD Democratic Republic of the Congo|DR Congo|Congo, Democratic Republic|Congo-Kinshasa
CF Central African Republic
CG Congo|Republic of the Congo|Congo Republic|Congo-Brazzaville
CH Switzerland
CI Côte d'Ivoire|Cote d'Ivoire|Ivory Coast
CK Cook Islands
CL Chile
CM Cameroon
CN China|People's Republic of China
CO Colombia
CR Costa Rica
CU Cuba
CV Cabo Verde|Cape Verde
CW Curaçao|Curacao
CX Christmas Island
CY Cyprus
CZ Czechia|Czech Republic
DE Germany|Deutschland
DJ Djibouti
DK Denmark
DM Dominica
DO Dominican Republic
DZ Algeria
EC Ecuador
EE Estonia
EG Egypt
EH Western Sahara
ER Eritrea
ES Spain
ET Ethiopia
FI Finland
FJ Fiji
FK Falkland Islands|Falkland Islands (Malvinas)
FM Micronesia|Federated States of Micronesia
FO Faroe Islands
FR France
GA Gabon
GB United Kingdom|UK|Great Britain|Britain|United Kingdom of Great Britain and Northern Ireland
GD Grenada
GE Georgia
GF French Guiana
GG Guernsey
GH Ghana
GI Gibraltar
GL Greenland
GM Gambia|The Gambia
GN Guinea
GP Guadeloupe
GQ Equatorial Guinea
GR Greece
GS South Georgia and the South Sandwich Islands
GT Guatemala
GU Guam
GW Guinea-Bissau
GY Guyana
HK Hong Kong
HM Heard Island and McDonald Islands
HN Honduras
HR Croatia
HT Haiti
HU Hungary
ID Indonesia
IE Ireland
IL Israel
IM Isle of Man
IN India
IO British Indian Ocean Territory
IQ Iraq
IR Iran|Islamic Republic of Iran
IS Iceland
IT Italy
JE Jersey
JM Jamaica
JO Jordan|Hashemite Kingdom of Jordan
JP Japan
KE Kenya
KG Kyrgyzstan
KH Cambodia
KI Kiribati
KM Comoros
KN Saint Kitts and Nevis|St Kitts and Nevis
KP North Korea|Democratic People's Republic of Korea
KR South Korea|Republic of Korea|Korea
KW Kuwait
KY Cayman Islands
KZ Kazakhstan
LA Laos|Lao People's Democratic Republic
LB Lebanon
LC Saint Lucia|St Lucia
LI Liechtenstein
LK Sri Lanka
LR Liberia
LS Lesotho
LT Lithuania|Republic of Lithuania
LU Luxembourg
LV Latvia
LY Libya
MA Morocco
MC Monaco
MD Moldova|Republic of Moldova
ME Montenegro
MF Saint Martin|Saint Martin (French part)
MG Madagascar
MH Marshall Islands
MK North Macedonia|Macedonia
ML Mali
MM Myanmar|Burma
MN Mongolia
MO Macao|Macau
MP Northern Mariana Islands
MQ Martinique
MR Mauritania
MS Montserrat
MT Malta
MU Mauritius
MV Maldives
MW Malawi
MX Mexico
MY Malaysia
MZ Mozambique
NA Namibia
NC New Caledonia
NE Niger
NF Norfolk Island
NG Nigeria
NI Nicaragua
NL Netherlands|The Netherlands|Holland
NO Norway
NP Nepal
NR Nauru
NU Niue
NZ New Zealand
OM Oman
PA Panama
PE Peru
PF French Polynesia
PG Papua New Guinea
PH Philippines
PK Pakistan
PL Poland
PM Saint Pierre and Miquelon
PN Pitcairn|Pitcairn Islands
PR Puerto Rico
PS Palestine|State of Palestine|Palestinian Territory
PT Portugal
PW Palau
PY Paraguay
QA Qatar
RE Réunion|Reunion
RO Romania
RS Serbia
RU Russia|Russian Federation
RW Rwanda
SA Saudi Arabia
SB Solomon Islands
SC Seychelles
SD Sudan
SE Sweden
SG Singapore
SH Saint Helena|Saint Helena, Ascension and Tristan da Cunha
SI Slovenia
SJ Svalbard and Jan Mayen
SK Slovakia
SL Sierra Leone
SM San Marino
SN Senegal
SO Somalia
SR Suriname
SS South Sudan
ST Sao Tome and Principe|São Tomé and Príncipe
SV El Salvador
SX Sint Maarten|Sint Maarten (Dutch part)
SY Syria|Syrian Arab Republic
SZ Eswatini|Swaziland
TC Turks and Caicos Islands
TD Chad
TF French Southern Territories
TG Togo
TH Thailand
TJ Tajikistan
TK Tokelau
TL Timor-Leste|East Timor
TM Turkmenistan
TN Tunisia
TO Tonga
TR Türkiye|Turkiye|Turkey
TT Trinidad and Tobago
TV Tuvalu
TW Taiwan
TZ Tanzania|United Republic of Tanzania
UA Ukraine
UG Uganda
UM United States Minor Outlying Islands
US United States|United States of America|USA
UY Uruguay
UZ Uzbekistan
VA Holy See|Vatican City|Vatican
VC Saint Vincent and the Grenadines|St Vincent and the Grenadines
VE Venezuela|Bolivarian Republic of Venezuela
VG British Virgin Islands|Virgin Islands (British)
VI U.S. Virgin Islands|US Virgin Islands|Virgin Islands (U.S.)
VN Vietnam|Viet Nam
VU Vanuatu
WF Wallis and Futuna
WS Samoa
XK Kosovo
YE Yemen
YT Mayotte
ZA South Africa
ZM Zambia
ZW Zimbabwe
`

/** Lower-case (ASCII letters only) name → code; code → its names in lower case. */
const byName = new Map<string, string>()
const byCode = new Map<string, string[]>()
for (const line of TABLE.split('\n')) {
  if (line === '') continue
  const code = line.slice(0, 2)
  const names = line.slice(3).split('|').map(asciiLowerName)
  byCode.set(code, names)
  for (const name of names) byName.set(name, code)
}

function asciiLowerName(name: string): string {
  return name.replace(/[A-Z]+/g, (m) => m.toLowerCase())
}

/** The ISO 3166-1 alpha-2 code for a name or code (any ASCII case), or undefined. */
export function countryCode(nameOrCode: string): string | undefined {
  if (/^[A-Za-z]{2}$/.test(nameOrCode)) {
    const code = nameOrCode.toUpperCase()
    return byCode.has(code) ? code : undefined
  }
  return byName.get(asciiLowerName(nameOrCode))
}

/** The known names of a code, in lower case (ASCII letters); empty for an unknown code. */
export const countryNames = (code: string): readonly string[] => byCode.get(code) ?? []

/** Every code of the table (for tests and docs). */
export const countryCodes = (): string[] => [...byCode.keys()]
