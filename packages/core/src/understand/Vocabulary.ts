/**
 * Words forms use, by meaning, in English, German, French and Spanish (with the Italian,
 * Portuguese and Dutch words that come for free). Tables of language, not of any one form: each
 * entry is a pattern over a normalised label (`normalize`: lower case, no accents, punctuation as
 * spaces), so "Date of birth", "Geburtsdatum", "date de naissance" and "fecha de nacimiento" all
 * find the same meaning.
 */

/**
 * `f` remembering its answers: understanding a form asks about the same labels, headings and
 * names again and again (a heading for every field under it), and each question runs dozens of
 * patterns. The memory is bounded: it starts afresh past a few thousand strings.
 */
const remembered = <A>(f: (text: string) => A): ((text: string) => A) => {
  const answers = new Map<string, A>()
  return (text) => {
    const known = answers.get(text)
    if (known !== undefined || answers.has(text)) return known as A
    if (answers.size >= 4_096) answers.clear()
    const answer = f(text)
    answers.set(text, answer)
    return answer
  }
}

/** A label as the patterns see it: lower case, accents and punctuation gone, single spaces, padded. */
export const normalize = remembered((text: string): string =>
  ` ${
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/ß/g, "ss")
      .toLowerCase()
      // A plural or gender ending in brackets is the word itself: "Name(s)", "Vorname(n)",
      // "Adresse(n)", "Mitarbeiter(in)"; its letters alone would read as another word ("n", "no").
      .replace(/(?<=\p{L})\((?:s|n|e|en|es|in|innen)\)(?!\p{L})/gu, "")
      .replace(/[’`´]/g, "'")
      .replace(/'s\b/g, "s")
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim()
  } `)

/** Builds a pattern from word alternatives; `_` in an alternative matches one or more spaces. */
const words = (...alternatives: ReadonlyArray<string>): RegExp => new RegExp(` (?:${alternatives.map((a) => a.replace(/_/g, " +")).join("|")}) `)

/** Patterns that find a pattern anywhere (alternatives may be word stems, e.g. `geburts\w*`). */
const stems = (...alternatives: ReadonlyArray<string>): RegExp => new RegExp(`(?:^| )(?:${alternatives.join("|")})`)

/** US states and territories by name, lower case ("Naperville, Illinois 60564"; "State of Michigan"). */
export const usStates: Readonly<Record<string, string>> = {
  alabama: "AL", alaska: "AK", arizona: "AZ", arkansas: "AR", california: "CA", colorado: "CO", connecticut: "CT", delaware: "DE",
  "district of columbia": "DC", florida: "FL", georgia: "GA", hawaii: "HI", idaho: "ID", illinois: "IL", indiana: "IN", iowa: "IA",
  kansas: "KS", kentucky: "KY", louisiana: "LA", maine: "ME", maryland: "MD", massachusetts: "MA", michigan: "MI", minnesota: "MN",
  mississippi: "MS", missouri: "MO", montana: "MT", nebraska: "NE", nevada: "NV", "new hampshire": "NH", "new jersey": "NJ",
  "new mexico": "NM", "new york": "NY", "north carolina": "NC", "north dakota": "ND", ohio: "OH", oklahoma: "OK", oregon: "OR",
  pennsylvania: "PA", "rhode island": "RI", "south carolina": "SC", "south dakota": "SD", tennessee: "TN", texas: "TX", utah: "UT",
  vermont: "VT", virginia: "VA", washington: "WA", "west virginia": "WV", wisconsin: "WI", wyoming: "WY", "puerto rico": "PR"
}

/** The semantic types of the taxonomy, one per kind of value a form asks for. */
export const semanticTypes = [
  // Names
  "given_name",
  "middle_name",
  "middle_initial",
  "given_name_and_middle_initial",
  "family_name",
  "full_name",
  "birth_name",
  "name_prefix",
  "name_suffix",
  // Dates
  "birth_date",
  "signature_date",
  "marriage_date",
  "start_date",
  "end_date",
  "issue_date",
  "expiry_date",
  "date",
  // Identifiers
  "ssn",
  "itin",
  "ein",
  "tax_id",
  "national_id",
  "passport_number",
  "driver_license",
  "iban",
  "bic",
  // Contact
  "phone",
  "fax",
  "email",
  // Address
  "address",
  "street_address",
  "house_number",
  "unit",
  "city",
  "county",
  "state",
  "postal_code",
  "city_state_postal",
  "country",
  // Person and work
  "sex",
  "age",
  "nationality",
  "birth_place",
  "birth_country",
  "marital_status",
  "filing_status",
  "relationship",
  "occupation",
  "employer",
  "organization",
  "languages",
  "passport_history",
  // An organisation's own facts
  "business_type",
  "legal_form",
  "industry_code",
  "established_date",
  "employee_count",
  "gross_income",
  "net_income",
  // Signing
  "signature",
  "signature_place",
  "unknown"
] as const

/** One meaning a field can have. */
export type SemanticType = (typeof semanticTypes)[number]

/** Whose value a field holds. */
export const roles = ["self", "spouse", "dependent", "other", "employer", "preparer", "official"] as const
export type Role = (typeof roles)[number]

interface Rule {
  readonly type: SemanticType
  readonly pattern: RegExp
  /** The rule does not apply when this also matches. */
  readonly unless?: RegExp
}

const birth = stems("birth", "dob\\b", "geburts\\w*", "geb\\b", "naissance", "nacimiento", "nascimento", "nascita", "geboorte\\w*", "ne le", "nee le", "nacido", "nacida", "born")
const dateWord = stems("date\\b", "dates\\b", "datum", "fecha", "data\\b", "when\\b", "day\\b", "jour\\b", "tag\\b", "dia\\b")

/**
 * Rules in order: the first that matches wins, so specific meanings ("first name and middle
 * initial", "employer identification number", "city, state and ZIP") come before the general
 * ones they contain.
 */
const rules: ReadonlyArray<Rule> = [
  // "Signed on", and a sentence that ends asking when something was signed ("A judge of this
  // court signed the judgment in this case on ____").
  { type: "signature_date", pattern: / (?:date\w* (?:of |de |der |de la )?(?:signature|signing|signed|unterschrift|firma)|(?:signature|signed|unterschrift|firma|fait) (?:\w+ ){0,3}(?:date|le|am|on)|(?:signed|signe|unterschrieben) (?:\w+ ){0,8}(?:on|le|am)(?= $)) / },
  { type: "signature_place", pattern: words("fait a", "signed at", "ort_datum", "ort und datum", "lugar y fecha", "lieu et date", "lieu date", "place of signing", "signed in") },
  { type: "signature", pattern: stems("signature", "sign here", "unterschrift", "firma\\b", "signe\\b", "signed\\b"), unless: stems("name of", "print", "typed", "nom\\b", "nombre", "name\\b") },
  // "PAIS_NAC", "LOC_NAC": Spanish field names shorten "nacimiento" to "nac".
  { type: "birth_country", pattern: / (?:(?:country|land|staat|pays|pais|paese|nation)\w* (?:\w+ ){0,2}(?:of |de |du |der |des |di )?(?:birth|naissance|nacimiento|nac|geburt|nascita)|geburtsland|birth country) / },
  { type: "birth_place", pattern: / (?:(?:place|city|town|country|lieu|ville|pays|lugar|ciudad|ort|land|staat|luogo|loc|prov|commune|state)\w* (?:\w+ ){0,3}(?:of |de |du |der |des |di )?(?:birth|naissance|nacimiento|nac|geburt|nascita)|birth (?:place|city|town|village|municipality|state|province)|geburtsort|geburtsstadt|geburtsland|birthplace|born in|ne a|nee a|nacido en|nacida en) / },
  { type: "birth_date", pattern: / (?:(?:date|fecha|data|datum|day|jour|dia) (?:\w+ ){0,2}(?:birth|naissance|nacimiento|nascimento|nascita|geboorte)|geburtsdatum|geburtstag|geb datum|dob|birth ?date|birthday|date de naiss\w*|fecha nac\w*|ne le|nee le|nacido el|nacida el|geboren am|born on|(?:dd|mm|yy|yyyy|jj|aa|aaaa|tt|gg) (?:nac|naiss|birth|geb)) /, unless: / (?:\d+ ?(?:st|nd|rd|th)|eighteenth|twenty\w*|since (?:my |his |her |their )?(?:\w+ )?)birthday / },
  { type: "marriage_date", pattern: stems("date of marriage", "marriage date", "married on", "heiratsdatum", "datum der eheschliessung", "date du mariage", "date de mariage", "fecha de matrimonio", "fecha del matrimonio") },
  { type: "start_date", pattern: stems("first date of employment", "date of employment", "employment start", "start date", "starting date", "date hired", "hire date", "date of hire", "employed since", "eintrittsdatum", "beschaftigt seit", "date d embauche", "date d entree", "fecha de alta", "fecha de inicio", "fecha de ingreso") },
  { type: "end_date", pattern: stems("end date", "date of departure", "austrittsdatum", "date de sortie", "date de fin", "fecha de baja", "fecha de fin") },
  { type: "issue_date", pattern: stems("date of issue", "issue date", "issued on", "date issued", "ausstellungsdatum", "ausgestellt am", "date de delivrance", "delivre le", "fecha de expedicion", "fecha de emision") },
  { type: "expiry_date", pattern: stems("expiration date", "expiry date", "date of expiry", "date of expiration", "expires", "valid until", "gultig bis", "ablaufdatum", "date d expiration", "valable jusqu", "fecha de caducidad", "fecha de vencimiento", "valido hasta") },
  { type: "birth_name", pattern: stems("birth name", "maiden name", "geburtsname", "nom de naissance", "nom de jeune fille", "apellido de soltera", "name at birth") },
  { type: "given_name_and_middle_initial", pattern: / (?:(?:first|given) name\w* (?:and )?(?:middle )?initial|prenom et initiale) / },
  { type: "middle_initial", pattern: / (?:middle initial|m i|mi|initial) /, unless: stems("first", "last", "initials of") },
  { type: "middle_name", pattern: stems("middle name", "middle\\b", "second name", "zweiter vorname", "deuxieme prenom", "segundo nombre", "other given names?"), unless: stems("full name", "last first", "last name first") },
  { type: "family_name", pattern: stems("last name", "family name", "surname", "lastname", "nachname", "familienname", "zuname", "nom de famille", "nom d usage", "nom\\b(?! et)(?! de l)(?! du)(?! des)", "apellido", "apellidos", "cognome", "achternaam", "sobrenome", "last(?= $| first| given| middle| mi | m i )", "lname\\b"), unless: stems("first name", "prenom", "vorname", "nombre", "full name", "nom et prenom", "nom prenom", "name and", "de la societe", "de l entreprise", "de l organisme", "de l employeur", "company", "business", "organi[sz]ation") },
  { type: "given_name", pattern: stems("first name", "given name", "forename", "firstname", "first\\b", "vorname", "vornamen", "prenom", "prenoms", "nombre de pila", "fname\\b", "nombre\\b(?! de la)(?! del)(?! y apellidos)(?! completo)", "nome\\b", "voornaam", "christian name"), unless: stems("full name", "nom et prenom", "nom prenom", "prenom nom", "nombre y apellidos", "nombre completo", "name and address", "last name", "nachname", "company", "business", "empresa", "entreprise", "nombre de la", "nombre del", "first time", "first (?:\\w+ )?(?:digits?|letters?|characters?|numbers?)\\b") },
  { type: "name_prefix", pattern: words("prefix", "title mr ms", "anrede", "civilite", "tratamiento", "mr mrs ms", "salutation") },
  { type: "name_suffix", pattern: words("suffix", "jr sr", "namenszusatz") },
  { type: "ein", pattern: stems("employer identification", "employer (?:tax )?id\\b", "ein\\b", "fein\\b", "federal tax id", "numero siret", "siret", "siren") },
  { type: "itin", pattern: stems("itin\\b", "individual taxpayer identification") },
  { type: "ssn", pattern: stems("social security n", "ssn\\b", "soc sec", "numero de securite sociale", "n de securite sociale", "securite sociale", "sozialversicherungsnummer", "rentenversicherungsnummer", "numero de la seguridad social", "seguridad social", "nir\\b", "n ss\\b", "nss\\b", "ahv", "avs\\b", "dassurance sociale", "d assurance sociale") },
  { type: "tax_id", pattern: stems("tax id", "taxpayer id", "tin\\b", "steuer ?id", "steuernummer", "steuer identifikationsnummer", "identifiant fiscal", "numero fiscal", "nif\\b", "vat\\b", "ust id", "numero de tva", "tva intracom", "codice fiscale", "tax file number", "business number", "numero d entreprise", "cuit", "rfc\\b") },
  { type: "passport_number", pattern: stems("passport n", "passport book", "passport card n", "reisepass", "passnummer", "numero de passeport", "passeport", "numero de pasaporte", "pasaporte") },
  { type: "driver_license", pattern: stems("driver s? licen", "drivers? licen", "driving licen", "fuhrerschein", "permis de conduire", "licencia de conducir", "carnet de conducir") },
  { type: "national_id", pattern: stems("national id", "identity card", "id card", "id number", "identification number", "personalausweis", "ausweisnummer", "carte d identite", "numero d identification", "n d identification", "identification nationale?", "national insurance", "dni\\b", "nie\\b", "documento nacional", "alien registration", "alien (?:number|no\\b)", "a number", "uscis online account", "matricule", "numero de registre", "n d immatriculation", "immatr") },
  { type: "iban", pattern: stems("iban") },
  { type: "bic", pattern: stems("bic\\b", "swift") },
  { type: "email", pattern: stems("e ?mail", "courriel", "correo", "adresse electronique", "electronic mail", "mail\\b") },
  { type: "fax", pattern: stems("fax", "telecopie") },
  { type: "phone", pattern: stems("phone", "telephone", "tel\\b", "telefon", "telefono", "mobile", "mobil\\b", "mobiltelefon", "mobilnummer", "handy", "portable", "movil", "celular", "cell\\b", "natel", "contact number", "daytime number") },
  { type: "city_state_postal", pattern: / (?:(?:city|town)\w* (?:\w+ ){0,4}state(?: \w+){0,2} (?:zip|postal)|(?:plz|postleitzahl|code postal|cp|npa) (?:und |et |y )?(?:ort|ville|localite|localidad|lieu|wohnort)|(?:ort|ville|localidad) (?:und |et |y )?(?:plz|code postal|cp)) / },
  { type: "postal_code", pattern: stems("zip", "postal code", "post code", "postcode", "plz\\b", "postleitzahl", "code postal", "codigo postal", "c p\\b", "cp\\b", "npa\\b", "cap\\b", "postcode") },
  { type: "house_number", pattern: stems("house number", "house nr\\b", "house no\\b", "house\\b", "hausnummer", "hausnr", "hnr\\b", "numero de rue", "n de rue", "numero de (?:la )?calle"), unless: stems("street", "strasse", "str\\b", "rue\\b", "calle", "address") },
  { type: "unit", pattern: stems("apt\\b", "apartment", "suite\\b", "ste\\b", "flr\\b", "floor\\b", "unit\\b", "wohnung", "appartement", "etage", "piso\\b", "departamento", "escalera", "puerta"), unless: stems("street", "strasse", "rue\\b", "calle") },
  { type: "street_address", pattern: stems("street", "strasse", "str\\b", "rue\\b", "calle", "via\\b", "straat", "rua\\b", "address line 1\\b", "adresse ligne 1\\b", "home address", "mailing address", "residential address", "domicile", "domicilio", "adresse\\b(?! electronique)", "address\\b(?! line 2)", "anschrift", "direccion", "indirizzo") , unless: stems("e ?mail", "web", "city", "ville", "ort\\b", "address (?:\\w+ )?(?:state|zip|postal code|country|province)\\b") },
  { type: "county", pattern: stems("county", "landkreis", "kreis\\b", "departement", "comte\\b", "condado") },
  { type: "state", pattern: stems("state\\b", "province", "provincia", "region", "bundesland", "canton", "kanton", "estado\\b", "etat\\b") , unless: stems("statement", "estado civil", "state of birth", "united states", "state (?:income )?tax", "tax\\b", "taxes\\b", "state withholding", "state\\w* (?:\\w+ ){0,2}(?:assigned|issued)", "state (?:\\w+ ){0,2}(?:number|no\\b|license|licence|registration)", "state id\\b", "state identification", "in the interest of", `(?:state|commonwealth) of (?:${Object.keys(usStates).join("|")}) `) },
  { type: "city", pattern: stems("city", "town\\b", "ort\\b", "wohnort", "stadt", "gemeinde", "ville", "localite", "commune", "ciudad", "localidad", "municipio", "municipality", "suburb", "citta\\b", "comune", "plaats", "cidade", "lieu\\b") },
  // Before country: "Country of citizenship" asks for a nationality, not where one lives.
  // "Of what country were you a citizen or national …?" asks for a nationality too.
  { type: "nationality", pattern: stems("nationality", "citizenship", "citizen or national", "country (?:\\w+ ){0,3}citizen\\b", "staatsangehorigkeit", "nationalite", "nacionalidad", "cittadinanza", "nationaliteit") },
  { type: "country", pattern: stems("country", "land\\b", "staat\\b", "pays", "pais", "paese", "nation\\b") },
  { type: "sex", pattern: stems("sex\\b", "gender", "geschlecht", "sexe", "sexo", "sesso", "genre\\b") },
  // "Age" in a phrase about age ("waive the age requirement", "18 years of age") asks for none.
  { type: "age", pattern: words("age", "alter", "edad", "eta"), unless: stems("age (?:requirement|limit|group|range|bracket)s?\\b", "years of age", "under age", "of age\\b") },
  { type: "filing_status", pattern: stems("filing status", "single married", "married filing", "head of household") },
  { type: "marital_status", pattern: stems("marital status", "civil status", "familienstand", "etat civil", "situation de famille", "situation familiale", "estado civil", "stato civile") },
  { type: "languages", pattern: stems("languages? spoken", "spoken languages?", "languages\\b", "langues parlees", "langues\\b", "sprachkenntnisse", "gesprochene sprachen", "sprachen\\b", "idiomas\\b", "lenguas habladas") },
  { type: "relationship", pattern: stems("relationship", "relation\\b", "verwandtschaft", "beziehung", "lien de parente", "lien avec", "parentesco", "relacion") },
  { type: "occupation", pattern: stems("occupation", "profession", "job title", "job $", "title\\b", "position\\b", "beruf", "tatigkeit", "berufsbezeichnung", "emploi\\b", "fonction", "ocupacion", "profesion", "puesto", "cargo\\b"), unless: stems("occupational classification", "occupation(?:al)? code", "soc code") },
  { type: "employer", pattern: stems("employer", "arbeitgeber", "employeur", "empleador", "empresa en la que", "name of (?:your )?employer") },
  { type: "organization", pattern: stems("company", "business name", "organi[sz]ation", "firm\\b", "firma\\b", "unternehmen", "entreprise", "societe", "raison sociale", "empresa", "razon social", "institution", "agency name", "facility name", "name of (?:the )?(?:business|entity|facility)") },
  // A blank in a sentence after "that I" or "I, the undersigned" ("Know all men by these presents,
  // that I ____ (Principal)"): the name of the one who says it.
  { type: "full_name", pattern: / (?:that|whereas) i $| (?:i|we) the undersigned $/ },
  { type: "full_name", pattern: stems("full name", "name\\b", "nom et prenom", "nom prenom", "nom\\b", "nombre y apellidos", "nombre completo", "apellidos y nombre", "vor und nachname", "vor und zuname", "name vorname", "nombre\\b", "nome\\b", "naam\\b", "printed name", "print name", "(?:form )?(?<!to be )completed by", "person completing", "ausgefullt von", "rempli par", "cumplimentado por", "completado por"), unless: stems("care ?of", "c o\\b", "character", "pet\\b", "product", "project", "brand", "team\\b", "school", "bank\\b", "vessel", "zu handen", "z hd\\b", "aux bons soins", "a l attention", "a la atencion", "company", "business", "organi[sz]ation", "employer", "street", "file name", "user ?name") },
  { type: "date", pattern: dateWord }
]

/**
 * What a label asks of an organisation: its kind of business, industry code, founding date, head
 * count and income. Looked up before `categoryOrAmount`, which keeps every other "type of",
 * "number of" and amount out of the taxonomy.
 */
const organizationRules: ReadonlyArray<Rule> = [
  { type: "industry_code", pattern: stems("naics", "sic code", "nace\\b", "code naf", "code ape", "cnae\\b", "wirtschaftszweig", "industry code", "industry classification") },
  {
    type: "established_date",
    pattern: stems("date (?:\\w+ )?established", "established on", "date of (?:incorporation|establishment|formation|foundation)", "incorporation date", "date (?:incorporated|founded|formed)", "founded on", "grundungsdatum", "datum der grundung", "date de creation", "date de constitution", "fecha de constitucion", "fecha de creacion", "fecha de fundacion"),
    unless: stems("year\\b", "jahr\\b", "annee", "ano\\b")
  },
  {
    type: "employee_count",
    // A key or label that is the one word ("employees: 48").
    pattern: /^ (?:employees|mitarbeiter|beschaftigte|salaries|employes|empleados) $| (?:(?:number|total|count) of (?:\w+ ){0,4}employees|(?:full time|part time|current|total) (?:\w+ ){0,3}employees|employee count|headcount|anzahl (?:der )?(?:mitarbeiter|beschaftigten|arbeitnehmer)\w*|mitarbeiterzahl|nombre de salaries|nombre d employes|effectif\w*|numero de (?:empleados|trabajadores)) /,
    unless: stems("or fewer", "or more", "more than", "less than", "fewer than", "at least", "mehr als", "weniger als", "plus de", "moins de", "mas de", "menos de")
  },
  { type: "gross_income", pattern: / (?:gross (?:annual )?(?:income|revenue|receipts|sales)|annual (?:gross )?(?:revenue|turnover)|(?:jahres)?umsatz\w*|bruttoeinkommen|chiffre d affaires|revenu brut|ingresos brutos|volumen de negocio) / },
  { type: "net_income", pattern: / (?:net (?:annual )?(?:income|profit|earnings)|nettoeinkommen|jahresuberschuss|reingewinn|revenu net|resultat net|benefice net|ingresos netos|beneficio neto) / },
  { type: "legal_form", pattern: / (?:(?:type|kind|form) of (?:legal )?entity|entity type|legal (?:form|structure|status)|business structure|form of (?:business|organi[sz]ation)|rechtsform|forme juridique|statut juridique|forma juridica|tipo de (?:sociedad|entidad)) / },
  { type: "business_type", pattern: / (?:(?:type|kind|nature|line) of business|business (?:type|activity|activities)|nature of (?:the )?(?:business|activity)|principal (?:business )?activity|art des (?:unternehmens|betriebs|gewerbes)|branche|geschaftstatigkeit|secteur d activite|activite principale|nature de l activite|tipo de (?:negocio|empresa)|actividad (?:principal|economica)) / }
]

/** The type a label names, or `unknown`. */
// A label that asks for a kind or an amount of something ("Type of business", "Gross annual
// income", "Number of employees") names no value of the taxonomy, whatever noun follows.
const categoryOrAmount = /(?:^| )(?:(?:type|kind|nature|category|art|sorte|tipo|genre) (?:of|de|der|des|du|d)|number of|anzahl (?:der|an)|nombre d|nombre de (?!la |el |los |las |su |pila |usuario )\w+s) (?!birth|naissance|geburt|nacimiento)|(?:^| )(?:income|revenue|turnover|salary|wages|amount|einkommen|umsatz|revenu|chiffre d affaires|ingresos|montant|betrag|importe)(?: |$)/

export const typeOf = remembered((label: string): SemanticType => {
  const text = normalize(label)
  const organizational = organizationRules.find((rule) => rule.pattern.test(text) && !(rule.unless?.test(text) ?? false))
  if (organizational) return organizational.type
  if (categoryOrAmount.test(text)) return "unknown"
  for (const rule of rules) {
    if (rule.pattern.test(text) && !(rule.unless?.test(text) ?? false)) {
      // "Date" near a birth word is a birth date, whatever the rule order saw first.
      return rule.type
    }
  }
  return birth.test(text) && dateWord.test(text) ? "birth_date" : "unknown"
})

interface RoleRule {
  readonly role: Role
  readonly pattern: RegExp
}

/** Role words in labels and headings; the first match wins. */
/** Words for the person who acts for an organisation: its contact person or authorised signatory. */
const representativeStems = [
  "contact person",
  "personne de contact",
  "ansprechpartner\\w*",
  "persona de contacto",
  "authori[sz]ed (?:signator\\w*|representative|person|official|to sign)",
  "signator(?:y|ies)\\b",
  "zeichnungsberechtigt\\w*",
  "signataire",
  "representant(?:e)? (?:legal|autorise)\\w*",
  "firmante",
  // Who runs it: a company's manager answers for it ("Gérant", "Geschäftsführer", "CFO").
  "gerante?\\b",
  "geschaftsfuhrer\\w*",
  "managing director",
  "directeur general",
  "director general",
  "ceo\\b",
  "cfo\\b",
  "chief (?:executive|financial|operating) officer",
  // Who completes a form for an organisation ("Completed by", "Person completing this form").
  "(?:form )?(?<!to be )completed by",
  "person completing",
  "ausgefullt von",
  "rempli par",
  "cumplimentado por",
  "completado por"
]

const representative = stems(...representativeStems)

/** Whether a key or label names the person who acts for an organisation. */
export const namesRepresentative = (text: string): boolean => representative.test(normalize(text))

const roleRules: ReadonlyArray<RoleRule> = [
  {
    role: "official",
    pattern: stems(
      "for official use",
      "official use",
      "office use",
      "for office",
      "for (?:\\w+ ){0,2}use only",
      "internal use",
      "do not write",
      "reserved for",
      "reserve a l",
      "cadre reserve",
      "reserve a l administration",
      "partie reservee",
      "amtliche",
      "nur fur (?:\\w+ )?(?:behord|amt|dienst)",
      "vom amt",
      "von der behorde",
      "behordenvermerk",
      "para uso (?:oficial|de la administracion)",
      "a rellenar por",
      "espacio reservado",
      "for agency use"
    )
  },
  {
    role: "preparer",
    pattern: stems(
      "preparer",
      "prepared by",
      "person preparing",
      "paid preparer",
      "interpreter",
      "translator",
      "attorney or accredited representative",
      "accredited representative",
      "steuerberater",
      "ersteller",
      "preparateur",
      "etabli par",
      "mandataire",
      "preparador",
      "interprete",
      "traductor"
    )
  },
  {
    role: "spouse",
    pattern: stems(
      "spouse",
      "spouses",
      "wife",
      "husband",
      "partner\\b",
      "ehegatt\\w*",
      "ehepartner\\w*",
      "ehefrau",
      "ehemann",
      "lebenspartner\\w*",
      "conjoint\\w*",
      "epoux",
      "epouse",
      "conyuge",
      "esposo",
      "esposa",
      "coniuge",
      "joint return"
    )
  },
  {
    role: "dependent",
    pattern: stems(
      "dependent",
      "dependant",
      "child\\b",
      "children",
      "son\\b",
      "daughter",
      "kids?\\b",
      "kind\\b",
      "kinder",
      "kindes",
      "enfant",
      "enfants",
      "ayant droit",
      "ayants droit",
      "personne a charge",
      "hijo",
      "hija",
      "hijos",
      "figli\\w*",
      "person (?:one|two|three|four|five|six|seven|eight|nine|ten)\\b"
    )
  },
  // The person who acts for an organisation (its contact person, its authorised signatory) is
  // someone other than the holder, before the organisation's own words ("authorised to sign for
  // the company") make it the employer.
  {
    role: "other",
    pattern: stems(...representativeStems)
  },
  {
    role: "employer",
    pattern: stems(
      "employer",
      "arbeitgeber\\w*",
      "employeur",
      "empleador",
      "company",
      "business",
      "unternehmen",
      "firma\\b",
      "entreprise",
      "societe",
      "empresa",
      "worksite",
      "place of work"
    )
  },
  {
    role: "other",
    pattern: stems(
      "emergency",
      "next of kin",
      "notfall\\w*",
      "urgence",
      "emergencia",
      "father",
      "mother",
      "parent\\b",
      "parents\\b",
      "guardian",
      "vater",
      "mutter",
      "eltern",
      "vormund",
      "pere\\b",
      "mere\\b",
      "tuteur",
      "padre",
      "madre",
      "tutor",
      "witness",
      "zeuge",
      "temoin",
      "testigo",
      "beneficiary",
      "beneficiaire",
      "beneficiario",
      "notary",
      "notar\\w*",
      "notaire",
      "seller",
      "buyer",
      "purchaser",
      "verkaufer",
      "kaufer",
      "vendeur",
      "acheteur",
      "vendedor",
      "comprador",
      "physician",
      "doctor",
      "medecin",
      "arzt",
      "medico",
      "respondent",
      "defendant",
      "designee\\w*",
      "third party",
      "attorney\\b(?! in fact)",
      "lawyer",
      "counsel\\b",
      "rechtsanwalt\\w*",
      "avocat\\b",
      "abogado",
      // Abbreviated in PDF names ("Nombre rep", "Nombre bnf"): a representative, a beneficiary.
      "rep\\b",
      "repr\\b",
      "bnf\\b",
      "benef\\b",
      "court address",
      "address of (?:the )?court",
      "court name",
      "name of (?:the )?court",
      "court county",
      "county of (?:the )?court"
    )
  }
]

/** Words of option captions that tell what a check box or radio group is about. */
const optionRules: ReadonlyArray<Rule> = [
  { type: "filing_status", pattern: stems("married filing", "head of household", "qualifying (?:widow|surviving|person)", "single\\b.*\\bfiling") },
  { type: "marital_status", pattern: words("single", "married", "divorced", "widowed", "separated", "ledig", "verheiratet", "geschieden", "verwitwet", "celibataire", "marie", "mariee", "divorce", "divorcee", "veuf", "veuve", "pacse", "soltero", "soltera", "casado", "casada", "divorciado", "divorciada", "viudo", "viuda") },
  { type: "sex", pattern: words("male", "female", "man", "woman", "mannlich", "weiblich", "divers", "homme", "femme", "masculin", "feminin", "hombre", "mujer", "masculino", "femenino", "maschio", "femmina") }
]

/**
 * The type the captions of a group's options tell ("Male", "Female" → sex), or `unknown`. Each
 * text counts once: an option's caption, label and value are often the same words, and one
 * option that happens to match ("Marie Curie" among historical figures) tells nothing: two must.
 */
export const typeOfOptions = (captions: ReadonlyArray<string>): SemanticType => {
  const texts = [...new Set(captions.map(normalize))].filter((t) => t.trim() !== "")
  for (const rule of optionRules) {
    const hits = texts.filter((t) => rule.pattern.test(t)).length
    if (hits >= 2) return rule.type
  }
  return "unknown"
}

/** Whether every option only answers a question ("Yes", "No", "Unknown"): a yes/no question, whatever it asks about. */
export const answersOnly = (captions: ReadonlyArray<string>): boolean => {
  const texts = captions.map((c) => c.trim()).filter((c) => c !== "")
  return texts.length >= 2 && texts.every((c) => bareAnswers.has(answerWords(c)))
}

/** A caption's words as the answer sets hold them, without a note in brackets ("Yes (explain)" → "yes"). */
const answerWords = (caption: string): string => normalize(caption.replace(/\(.*\)/g, " ")).trim()

// Option captions that only answer a question: alone they name nothing.
const bareAnswers = new Set([
  "yes", "no", "other", "others", "none", "unknown", "n a", "na", "not applicable", "not assessed", "don t know",
  "ja", "nein", "sonstige", "sonstiges", "andere", "anderes", "keine", "unbekannt",
  "oui", "non", "autre", "autres", "aucun", "aucune", "inconnu",
  "si", "otro", "otra", "otros", "ninguno", "ninguna", "desconocido"
])

// The answers of a yes/no question.
const yesNoAnswers = new Set(["yes", "no", "unknown", "don t know", "ja", "nein", "unbekannt", "oui", "non", "inconnu", "si", "desconocido"])

/** Whether a caption answers yes or no ("No", "Yes (explain)", "Nein"): its box answers a yes/no question. */
export const yesOrNo = (caption: string): boolean => yesNoAnswers.has(answerWords(caption))

/** Whether an option caption means nothing without its question ("Yes", "Other", "Nein"). */
export const saysNothingAlone = (caption: string): boolean => {
  const t = answerWords(caption)
  return bareAnswers.has(t) || t.replace(/[^a-z\p{L}]/gu, "").length < 3
}

// Identifiers that share the type `national_id` but are different numbers of one person: a form
// asking for one must not get the other.
const idSchemes: ReadonlyArray<[string, RegExp]> = [
  ["alien registration", / (?:alien|a number|a no) /],
  ["online account", / online account /]
]

/**
 * Which kind of national identifier a label or key names ("Alien Registration Number (A-Number)",
 * "USCIS Online Account Number"), or undefined for a plain identity number.
 */
export const idSchemeOf = remembered((text: string): string | undefined => {
  const t = normalize(text)
  return idSchemes.find(([, re]) => re.test(t))?.[0]
})

/** The role a label or heading names, if any. */
export const roleOf = remembered((text: string): Role | undefined => {
  const t = normalize(text)
  return roleRules.find((r) => r.pattern.test(t))?.role
})

/**
 * Whether a text names both the spouse and the children ("Information About the Spouse and All
 * Children"): a heading over blocks for each of them, which says of no one block whose it is.
 */
export const namesSpouseAndChildren = remembered((text: string): boolean => {
  const t = normalize(text)
  const named = new Set(roleRules.filter((r) => r.pattern.test(t)).map((r) => r.role))
  return named.has("spouse") && named.has("dependent")
})

const ordinals: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  erste: 1, zweite: 2, dritte: 3, vierte: 4, premier: 1, premiere: 1, deuxieme: 2, troisieme: 3, quatrieme: 4,
  primero: 1, primera: 1, segundo: 2, segunda: 2, tercero: 3, tercera: 3, cuarto: 4, cuarta: 4
}

/** The number a dependent label gives ("Child 2", "Person Six", "2nd child", "enfant n° 3"), if any. */
export const dependentIndexOf = (text: string): number | undefined => {
  // "(1)" numbers a column ("(1) First name"), not a dependent.
  const t = normalize(text.replace(/\(\s*\d{1,2}\s*\)/g, " "))
  const near = t.match(
    /(?:dependent|dependant|child|kind|enfant|hijo|hija|person|personne|ayant droit)s? (?:n |nr |no |number |numero )?(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\b/
  ) ?? t.match(/\b(\d{1,2}|first|second|third|fourth|fifth|erste|zweite|dritte|premier|premiere|deuxieme|troisieme|primero|primera|segundo|segunda)(?:st|nd|rd|th|e|er|eme)? (?:dependent|child|kind|enfant|hijo|hija)/)
  if (!near) return undefined
  const word = near[1]!
  const n = /^\d+$/.test(word) ? Number(word) : ordinals[word]
  return n !== undefined && n >= 1 && n <= 50 ? n : undefined
}

/** Page-text words of each language, to tell which language a form is in. */
const languageWords: Record<string, ReadonlyArray<string>> = {
  en: ["the", "and", "of", "to", "your", "you", "for", "name", "date", "address", "if", "this", "with", "number", "my", "am", "is", "was", "at", "on", "are", "have"],
  de: ["der", "die", "und", "das", "des", "ich", "nicht", "mit", "für", "fur", "name", "datum", "ist", "bitte", "oder"],
  fr: ["le", "la", "les", "et", "des", "du", "de", "vous", "votre", "pour", "nom", "date", "est", "une", "sur"],
  es: ["el", "la", "los", "las", "y", "de", "del", "que", "por", "para", "nombre", "fecha", "su", "en", "con"],
  it: ["il", "di", "che", "per", "della", "nome", "data", "del", "con", "non", "sono", "mi", "mio", "mia", "nata", "nato", "una"],
  nl: ["de", "het", "een", "en", "van", "naam", "datum", "voor", "met", "niet"],
  // Not "a" or "o": the English article and a lone letter would make English read as Portuguese.
  pt: ["os", "de", "do", "da", "que", "para", "nome", "data", "com", "nao", "sou", "meu", "minha", "em", "um", "uma", "dos", "das", "ou"]
}

/** The language most of `text` is in, by its common words (ISO 639-1), or undefined. */
export const languageOf = (text: string): string | undefined => {
  const tokens = normalize(text).trim().split(" ")
  if (tokens.length < 5) return undefined
  const counts = new Map<string, number>()
  for (const [lang, list] of Object.entries(languageWords)) {
    const set = new Set(list.map((w) => normalize(w).trim()))
    counts.set(lang, tokens.filter((t) => set.has(t)).length)
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1])
  const [best, second] = ranked
  if (!best || best[1] < 3 || (second && best[1] < 1.2 * second[1])) return undefined
  return best[0]
}

// Units and currencies printed as symbols or abbreviations ("Kg (material)", "Sales ($)"), and
// how each language says them. A screen reader spells "kg" out letter by letter, and an
// accessible name says its units in words, as the /TU of accessible forms do.
const UNIT_SIGNS: ReadonlyArray<readonly [RegExp, Record<string, string>]> = [
  [/\bkgs?\b/gi, { en: "kilograms", de: "Kilogramm", fr: "kilogrammes", es: "kilogramos" }],
  [/\bmg\b/gi, { en: "milligrams", de: "Milligramm", fr: "milligrammes", es: "miligramos" }],
  [/\blbs?\b/gi, { en: "pounds" }],
  [/\boz\b/gi, { en: "ounces" }],
  [/\bkm\b/gi, { en: "kilometres", de: "Kilometer", fr: "kilomètres", es: "kilómetros" }],
  [/\$/g, { en: "dollars", fr: "dollars", es: "dólares" }],
  [/€/g, { en: "euros", de: "Euro", fr: "euros", es: "euros" }],
  [/£/g, { en: "pounds" }]
]

/** A currency sign before its amount ("$3,650"), which is said after it ("3,650 dollars"). */
const SIGN_BEFORE_AMOUNT = /([$€£])\s?(\d[\d,.]*\d|\d)/gu
/** A currency sign set against the amount before it ("42€"), said as a word of its own. */
const SIGN_AFTER_AMOUNT = /(\d)([$€£])/gu

/**
 * `text` with its unit abbreviations and currency signs in the words of `language` (en, de, fr,
 * es); unchanged in another. A sign printed both before the amount and after it ("$2,000 $", the
 * second one a cell's) is said once.
 */
export const spokenUnits = (text: string, language: string | undefined): string => {
  if (language === undefined) return text
  const signsAfter = text.replace(SIGN_BEFORE_AMOUNT, "$2 $1").replace(SIGN_AFTER_AMOUNT, "$1 $2").replace(/([$€£])(?:\s+\1)+/gu, "$1")
  return UNIT_SIGNS.reduce((said, [sign, words]) => (words[language] ? said.replace(sign, words[language]) : said), signsAfter)
}
