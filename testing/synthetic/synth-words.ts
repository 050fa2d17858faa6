/**
 * Word lists for the synthetic release. Place and organisation names are
 * composed from invented roots ("Arden" + "hill"), so no synthetic entity is
 * mistaken for a real Wikidata item, while states, decades and jobs in the
 * narratives are real-world context words that never form an entity name.
 */

export const ROOT_HEADS = [
  "Arden", "Keller", "Bram", "Cald", "Dun", "Elm", "Fair", "Glen", "Hart", "Ives",
  "Jas", "Kirk", "Lang", "Mar", "Nor", "Oak", "Pem", "Quin", "Rad", "Sel",
  "Thorn", "Ul", "Vant", "Wex", "Yar", "Ash", "Brook", "Cole", "Dray", "Ever",
  "Fern", "Gil", "Hol", "Lyn", "Mill", "Pine", "Red", "Stan", "Wil", "Hazel",
  "Bel", "Cor", "Dal", "Eas", "Fal", "Gran", "Hal", "Kes", "Lor", "Mor",
] as const;

export const ROOT_TAILS = [
  "hill", "ton", "ville", "field", "wood", "burg", "dale", "ford", "port", "brook",
  "haven", "mont", "ridge", "stead", "well", "worth", "bury", "water", "moor", "crest",
  "wick", "land", "by", "mere",
] as const;

export const FIRST_NAMES_FEMALE = [
  "Margaret", "Dorothy", "Helen", "Ruth", "Evelyn", "Frances", "Alice", "Irene", "Josephine", "Lillian",
  "Mae", "Hazel", "Gladys", "Edna", "Thelma", "Beatrice", "Clara", "Esther", "Grace", "Pearl",
  "Yuki", "Fumiko", "Rosa", "Lucia", "Amara", "Nadia", "Ingrid", "Teresa", "Ada", "Vera",
] as const;

export const FIRST_NAMES_MALE = [
  "Walter", "Harold", "Raymond", "Eugene", "Clarence", "Howard", "Albert", "Chester", "Leonard", "Herbert",
  "Floyd", "Vernon", "Melvin", "Lloyd", "Wendell", "Otis", "Rufus", "Elmer", "Homer", "Virgil",
  "Kenji", "Tadashi", "Miguel", "Stanislaw", "Tomas", "Jomo", "Emil", "Anton", "Samuel", "Isaac",
] as const;

/** Nicknames for some first names; a nickname alias is "Peggy Oyelaran". */
export const NICKNAMES: Readonly<Record<string, string>> = {
  Margaret: "Peggy",
  Dorothy: "Dot",
  Frances: "Fran",
  Josephine: "Jo",
  Beatrice: "Bea",
  Walter: "Walt",
  Harold: "Hal",
  Raymond: "Ray",
  Eugene: "Gene",
  Albert: "Al",
  Leonard: "Len",
  Herbert: "Herb",
  Samuel: "Sam",
  Teresa: "Tess",
  Stanislaw: "Stan",
};

export const SURNAMES = [
  "Oyelaran", "Kellerman", "Hollister", "Brannigan", "Castellano", "Dombrowski", "Eriksen", "Fairbanks", "Gallagher",
  "Hashimoto", "Ingersoll", "Jablonski", "Kowalczyk", "Lindqvist", "Maddox", "Nakamura", "Okonkwo", "Pendleton",
  "Quintero", "Rasmussen", "Santangelo", "Tanaka", "Underwood", "Valdivia", "Whitcomb", "Yamaguchi", "Zielinski",
  "Abernathy", "Blackwood", "Cardenas", "Delacroix", "Ellsworth", "Fitzgerald", "Grabowski", "Haldane", "Iwasaki",
  "Jorgensen", "Kaminski", "Lockhart", "Montoya", "Novak", "Ostrowski", "Pruitt", "Ramirez", "Sorensen", "Thibodeaux",
  "Vance", "Winslow", "Yoshida", "Ambrose", "Birchfield", "Coffey", "Drummond", "Esposito", "Faulkner", "Greenlee",
  "Hargrove", "Ishikawa", "Jefferies", "Kimura", "Lacroix", "Mulligan", "Nordstrom", "Overbey", "Petrakis",
  "Quarles", "Rutledge", "Stroud", "Talbot", "Uchida", "Vasquez", "Whitfield", "Adeyemi", "Boateng", "Chukwu",
  "Dunleavy", "Ekwueme", "Fontaine", "Goldberg", "Horvath", "Ivanova", "Jankowski", "Kessler", "Lowenstein",
  "Mendoza", "Nguyen", "Ortega", "Pokorny", "Reinholt", "Schreiber", "Takahashi", "Umberger", "Voss", "Wakefield",
  "Yancey", "Zamora", "Ashby", "Beaumont", "Crenshaw", "Dvorak", "Everhart", "Fenwick", "Galloway", "Hutchins",
] as const;

export const SAINTS = ["Anne", "Albans", "Clair", "Helena", "Joseph", "Mary", "Paul", "Charles", "Louis", "Agnes"] as const;

export const STATES = [
  "Ohio", "Nevada", "Kentucky", "Wisconsin", "Minnesota", "California", "Oregon", "Washington", "Idaho", "Utah",
  "Arizona", "Texas", "Oklahoma", "Kansas", "Nebraska", "Iowa", "Missouri", "Illinois", "Indiana", "Michigan",
  "Pennsylvania", "New York", "Alabama", "Georgia", "Mississippi", "Louisiana", "Tennessee", "Virginia", "Colorado",
  "Montana",
] as const;

export const ADJECTIVES = [
  "Long", "Quiet", "Silver", "Broken", "Distant", "Golden", "Hidden", "Crimson", "Patient", "Restless",
  "Winter", "Summer", "Bitter", "Gentle", "Narrow", "Hollow", "Burning", "Faded", "Open", "Lonesome",
  "Endless", "Scattered", "Borrowed", "Second", "Last", "Empty", "Wandering", "Stubborn", "Bright", "Crooked",
] as const;

export const NOUNS = [
  "Road", "Harvest", "River", "Orchard", "Lantern", "Garden", "Season", "Bridge", "Shore", "Mountain",
  "Letter", "Country", "Field", "Harbor", "Promise", "Station", "Kitchen", "Window", "Valley", "Current",
  "Homecoming", "Horizon", "Ledger", "Meadow", "Passage", "Chorus", "Frontier", "Lullaby", "Parade", "Prairie",
] as const;

export const CODEWORDS = [
  "Copperhead", "Iron Gate", "Nightjar", "Blue Heron", "Granite", "Sandpiper", "Thunderclap", "Kestrel", "Long Pine",
  "Red Fox", "Cold Harbor", "Stone Wall", "Black Kite", "Jade Arrow", "Silver Birch", "High Tide", "Deep Well",
  "Bramble", "Windmill", "Morning Star",
] as const;

export const ORDINAL_WORDS = [
  "First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth",
  "Eleventh", "Twelfth",
] as const;

export const OCCUPATIONS = [
  { title: "labor organizer", cue: "a union organizer", short: "the organizer" },
  { title: "civil rights activist", cue: "a civil rights leader", short: "the activist" },
  { title: "schoolteacher", cue: "a teacher at the local school", short: "the teacher" },
  { title: "physician", cue: "a doctor in town", short: "the doctor" },
  { title: "Baptist minister", cue: "a minister at our church", short: "the minister" },
  { title: "politician", cue: "a state senator", short: "the senator" },
  { title: "newspaper editor", cue: "the editor of the local paper", short: "the editor" },
  { title: "painter", cue: "a painter I studied with", short: "the painter" },
  { title: "professor of chemistry", cue: "a chemistry professor", short: "the professor" },
  { title: "United States Army officer", cue: "our commanding officer", short: "the officer" },
  { title: "jazz musician", cue: "a jazz musician", short: "the musician" },
  { title: "nurse", cue: "the head nurse", short: "the nurse" },
  { title: "community leader", cue: "a community leader", short: "the leader" },
  { title: "businessman", cue: "the man who owned the cannery", short: "the owner" },
  { title: "lawyer", cue: "a lawyer who took our case", short: "the lawyer" },
] as const;

export const RELATIVES = ["father", "mother", "uncle", "aunt", "older brother", "older sister", "grandfather", "grandmother", "husband", "wife"] as const;

export const WORKPLACES = [
  "cannery", "rail yard", "steel mill", "lumber mill", "shipyard", "mine", "dairy farm", "hardware store",
  "textile plant", "post office", "grain elevator", "print shop", "hospital laundry", "packing house",
] as const;

export const HOME_GOODS = ["a radio", "a sewing machine", "a Model T", "a piano", "a milk cow", "a wood stove"] as const;
