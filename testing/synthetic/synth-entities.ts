import type { EntityType } from "@/lib/core/dataset/release-schema";
import type { SeededRandom } from "@/testing/synthetic/seeded-random";
import {
  ADJECTIVES,
  CODEWORDS,
  FIRST_NAMES_FEMALE,
  FIRST_NAMES_MALE,
  NICKNAMES,
  NOUNS,
  OCCUPATIONS,
  ORDINAL_WORDS,
  ROOT_HEADS,
  ROOT_TAILS,
  SAINTS,
  STATES,
  SURNAMES,
  WORKPLACES,
} from "@/testing/synthetic/synth-words";

/**
 * One synthetic entity before it gets a QID: its KB fields plus the phrases
 * that stand in for it in an implicit text (the paper's "sentence-local
 * descriptions", e.g. "the attack on the naval base in Hawaii").
 */
export type EntityDraft = {
  name: string;
  /** Candidate aliases; the generator keeps 0-3 of them. */
  aliasCandidates: string[];
  description: string;
  /** A clause for description_wiki: "<name> is <wikiClause>." */
  wikiClause: string;
  /** First mention in an implicit text, e.g. "a small town in Ohio". */
  implicitRef: string;
  /** Later mentions, e.g. "the town". */
  implicitShortRef: string;
};

type DraftMaker = (random: SeededRandom) => EntityDraft;
type WeightedMaker = { weight: number; make: DraftMaker };

function root(random: SeededRandom): string {
  return random.pick(ROOT_HEADS) + random.pick(ROOT_TAILS);
}

function year(random: SeededRandom, from: number, to: number): number {
  return from + random.int(to - from + 1);
}

function ordinal(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) {
    return `${n}th`;
  }
  const suffix = ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}

function initials(words: string): string {
  return words
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .map((word) => word[0] ?? "")
    .join("")
    .toUpperCase();
}

function dotted(acronym: string): string {
  return `${acronym.split("").join(".")}.`;
}

function article(word: string): string {
  // "an army post", but "a United States Navy ship"
  return /^(?:[aeio]|u(?!ni))/i.test(word) ? "an" : "a";
}

function draft(
  name: string,
  description: string,
  implicitRef: string,
  implicitShortRef: string,
  aliasCandidates: string[],
): EntityDraft {
  return {
    name,
    aliasCandidates,
    description,
    wikiClause: `${article(description)} ${description}`,
    implicitRef,
    implicitShortRef,
  };
}

const PLACE_MAKERS: WeightedMaker[] = [
  {
    weight: 4,
    make: (r) => {
      const name = root(r);
      const state = r.pick(STATES);
      return draft(name, `town in ${state}, United States`, `a small town in ${state}`, "the town", [
        `${name}, ${state}`,
        `Town of ${name}`,
        name.toUpperCase(),
      ]);
    },
  },
  {
    weight: 3,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`${base} County`, `county in ${state}, United States`, `a farming county in ${state}`, "the county", [
        `${base} Co.`,
        `${base} county`,
        `${base} Co`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`Lake ${base}`, `lake in ${state}`, `the big lake up in ${state}`, "the lake", [`${base} Lake`]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const surname = r.pick(SURNAMES);
      const state = r.pick(STATES);
      return draft(`Fort ${surname}`, `United States Army post in ${state}`, `an Army post in ${state}`, "the post", [
        `Ft. ${surname}`,
        `Ft ${surname}`,
        `Camp ${surname}`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`${base} Valley`, `valley in ${state}`, `a valley in ${state}`, "the valley", [`${base} valley`]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`Mount ${base}`, `mountain in ${state}`, `the tallest mountain in our part of ${state}`, "the mountain", [
        `Mt. ${base}`,
        `Mt ${base}`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`${base} Heights`, `neighborhood in ${state}`, `a neighborhood on the east side of the city`, "the neighborhood", [
        `${base} Hts.`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`Camp ${base}`, `World War II camp in ${state}`, `a camp out in the desert of ${state}`, "the camp", [
        `${base} Relocation Center`,
        `${base} Camp`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`${base} River`, `river in ${state}`, `the river that ran past our farm`, "the river", [`${base} R.`]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const saint = r.pick(SAINTS);
      const place = r.pick(["Crossing", "Landing", "Harbor"]);
      const state = r.pick(STATES);
      return draft(`St. ${saint}'s ${place}`, `city in ${state}, United States`, `a river town in ${state}`, "the town", [
        `Saint ${saint}'s ${place}`,
        `St ${saint}'s ${place}`,
        `St. ${saint}’s ${place}`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`Port ${base}`, `city in ${state}, United States`, `a port city in ${state}`, "the city", [`Pt. ${base}`]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`${base} Springs`, `city in ${state}, United States`, `a resort town in ${state}`, "the town", [
        `${base} Spgs.`,
      ]);
    },
  },
];

const INDUSTRIES = ["Steel", "Lumber", "Canning", "Aircraft", "Mining", "Textile", "Railroad", "Packing", "Shipbuilding"];
const TRADES = ["Teachers", "Mine Workers", "Cannery Workers", "Garment Workers", "Longshore Workers", "Auto Workers"];
const PAPERS = ["Courier", "Gazette", "Tribune", "Herald", "Sentinel"];
const DENOMINATIONS = ["Baptist", "Methodist", "Lutheran", "Presbyterian", "Buddhist"];

const ORGANIZATION_MAKERS: WeightedMaker[] = [
  {
    weight: 3,
    make: (r) => {
      const base = root(r);
      const industry = r.pick(INDUSTRIES);
      const name = `${base} ${industry} Company`;
      return draft(name, `former American ${industry.toLowerCase()} company`, `a big ${industry.toLowerCase()} company`, "the company", [
        `${base} ${industry} Co.`,
        initials(name),
        `${base} ${industry}`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const surname = r.pick(SURNAMES);
      return draft(`${surname} Brothers`, "American department store chain", "a national department store", "the store", [
        `${surname} Bros.`,
        `${surname} Brothers Department Store`,
        `${surname} Bros`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`University of ${base}`, `public university in ${state}`, `the state university in ${state}`, "the university", [
        `${base} University`,
        `U of ${base}`,
        `U. of ${base}`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`${base} College`, `private liberal arts college in ${state}`, "a small liberal arts college", "the college", [
        `${base} Coll.`,
      ]);
    },
  },
  {
    weight: 2,
    make: (r) => {
      const base = root(r);
      const trade = r.pick(TRADES);
      const name = `${base} ${trade} Union`;
      const acronym = initials(name);
      return draft(name, "American labor union", "the union local", "the union", [acronym, dotted(acronym), `${base} ${trade}' Union`]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      return draft(`${base} Relief Committee`, "charitable organization", "the relief committee in our town", "the committee", [
        `${base} Relief Cttee`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const state = r.pick(STATES);
      return draft(`${base} General Hospital`, `hospital in ${state}`, "the big hospital downtown", "the hospital", [
        `${base} General`,
        `${base} Hospital`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const paper = r.pick(PAPERS);
      const state = r.pick(STATES);
      return draft(`The ${base} ${paper}`, `daily newspaper published in ${state}`, "the local daily paper", "the paper", [
        `${base} ${paper}`,
        `${base} Daily ${paper}`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const denomination = r.pick(DENOMINATIONS);
      const building = denomination === "Buddhist" ? "Temple" : "Church";
      const state = r.pick(STATES);
      return draft(
        `${base} ${denomination} ${building}`,
        `${denomination.toLowerCase()} congregation in ${state}`,
        `the ${building.toLowerCase()} my family attended`,
        `the ${building.toLowerCase()}`,
        [`${base} ${denomination}`],
      );
    },
  },
];

const PERSON_MAKER: DraftMaker = (r) => {
  const isFemale = r.chance(0.45);
  const first = r.pick(isFemale ? FIRST_NAMES_FEMALE : FIRST_NAMES_MALE);
  const surname = r.pick(SURNAMES);
  const middle = r.chance(0.3) ? String.fromCharCode(65 + r.int(26)) : undefined;
  const name = middle === undefined ? `${first} ${surname}` : `${first} ${middle}. ${surname}`;
  const occupation = r.pick(OCCUPATIONS);
  const born = year(r, 1875, 1955);
  const died = born + 45 + r.int(50);
  const life = died > 2024 ? `born ${born}` : `${born}–${died}`;
  const aliases: string[] = [];
  if (middle !== undefined) {
    aliases.push(`${first} ${surname}`, `${first} ${middle} ${surname}`);
  }
  const nickname = NICKNAMES[first];
  if (nickname !== undefined) {
    aliases.push(`${nickname} ${surname}`);
  }
  aliases.push(`${first[0] ?? ""}. ${surname}`, `${surname}, ${first}`);
  return draft(name, `American ${occupation.title} (${life})`, occupation.cue, occupation.short, aliases);
};

const WARS = ["American Civil War", "Spanish–American War", "World War I", "World War II", "Korean War"];

const EVENT_MAKERS: WeightedMaker[] = [
  {
    weight: 2,
    make: (r) => {
      const base = root(r);
      const war = r.pick(WARS);
      return draft(`Battle of ${base}`, `battle of the ${war}`, `the battle our regiment was sent into`, "the battle", [
        `${base} Battle`,
        `Siege of ${base}`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const when = year(r, 1900, 1985);
      const state = r.pick(STATES);
      return draft(`${base} Flood of ${when}`, `flood in ${state} in ${when}`, `the flood that spring of ${when}`, "the flood", [
        `Great ${base} Flood`,
        `${when} ${base} flood`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const when = year(r, 1890, 1990);
      return draft(`${base} Fire of ${when}`, `urban fire in ${when}`, `the fire of ${when} that burned half the town`, "the fire", [
        `Great ${base} Fire`,
        `${base} fire of ${when}`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const when = year(r, 1890, 1980);
      const state = r.pick(STATES);
      const workplace = r.pick(WORKPLACES);
      return draft(`${base} Strike of ${when}`, `labor strike in ${state}`, `the strike at the ${workplace} in ${when}`, "the strike", [
        `${when} ${base} strike`,
        `${base} strike`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const when = year(r, 1900, 1970);
      const state = r.pick(STATES);
      return draft(`${base} Race Riot of ${when}`, `racial violence in ${state} in ${when}`, `the riot that summer of ${when}`, "the riot", [
        `${base} Riot`,
        `${base} Massacre`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const when = year(r, 1893, 1982);
      return draft(`${base} World's Fair`, `world's fair held in ${when}`, `the world's fair of ${when}`, "the fair", [
        `${base} Exposition`,
        `${base} Worlds Fair`,
        `${base} World’s Fair`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const when = year(r, 1920, 2015);
      return draft(`${when} ${base} Tornado`, `tornado in ${when}`, `the tornado that hit us in ${when}`, "the storm", [
        `${base} tornado`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const when = year(r, 1955, 1968);
      return draft(`March on ${base}`, `civil rights demonstration in ${when}`, `the march downtown in ${when}`, "the march", [
        `${base} March`,
        `${base} march of ${when}`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const code = r.pick(CODEWORDS);
      const war = r.pick(WARS.slice(3));
      return draft(`Operation ${code}`, `military operation of the ${war}`, "the big push that fall", "the operation", [
        `Op. ${code}`,
        `OPERATION ${code.toUpperCase()}`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const when = year(r, 1955, 1965);
      return draft(`${base} Bus Boycott`, `civil rights protest in ${when}`, `the boycott of the city buses in ${when}`, "the boycott", [
        `${base} boycott`,
      ]);
    },
  },
];

const WORK_MAKERS: WeightedMaker[] = [
  {
    weight: 2,
    make: (r) => {
      const adjective = r.pick(ADJECTIVES);
      const noun = r.pick(NOUNS);
      const author = `${r.pick(FIRST_NAMES_FEMALE)} ${r.pick(SURNAMES)}`;
      return draft(`The ${adjective} ${noun}`, `${year(r, 1900, 1990)} novel by ${author}`, "a novel my teacher gave me", "the book", [
        `${adjective} ${noun}`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const title = `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} Blues`;
      return draft(title, `song recorded in ${year(r, 1920, 1965)}`, "a blues record everybody played that year", "the song", [
        `"${title}"`,
        title.toLowerCase(),
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const title = `${r.pick(NOUNS)} of ${root(r)}`;
      return draft(title, `${year(r, 1930, 1995)} American film`, "a picture we saw at the movie house", "the picture", [
        `${title} (film)`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const title = `${r.pick(NOUNS)} at ${root(r)}`;
      const painter = `${r.pick(FIRST_NAMES_MALE)} ${r.pick(SURNAMES)}`;
      return draft(title, `painting by ${painter}`, "a painting that hung in the museum", "the painting", [
        `${title} (painting)`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      return draft(`The ${base} Hour`, "American radio program", "a radio program we listened to every Sunday night", "the program", [
        `${base} Hour`,
      ]);
    },
  },
];

const UNIT_PATTERNS: { name: string; description: string; ref: string; short: string; aliases: string[] }[] = [
  {
    name: "Infantry Division",
    description: "infantry division of the United States Army",
    ref: "an infantry division that landed in France",
    short: "the division",
    aliases: ["ID", "Inf. Div.", "Infantry Div."],
  },
  {
    name: "Armored Division",
    description: "armored division of the United States Army",
    ref: "a tank division that crossed the Rhine",
    short: "the division",
    aliases: ["AD", "Armd. Div."],
  },
  {
    name: "Marine Regiment",
    description: "infantry regiment of the United States Marine Corps",
    ref: "a Marine regiment in the Pacific",
    short: "the regiment",
    aliases: ["Marines"],
  },
  {
    name: "Bombardment Group",
    description: "unit of the United States Army Air Forces",
    ref: "a bomber group flying out of England",
    short: "the group",
    aliases: ["Bomb Group", "BG"],
  },
  {
    name: "Fighter Squadron",
    description: "fighter squadron of the United States Air Force",
    ref: "a fighter squadron based in Italy",
    short: "the squadron",
    aliases: ["FS", "Ftr. Sq."],
  },
  {
    name: "Engineer Combat Battalion",
    description: "combat engineer battalion of the United States Army",
    ref: "an engineer outfit that built bridges",
    short: "the battalion",
    aliases: ["Engineers", "Engr. Bn."],
  },
  {
    name: "Field Artillery Battalion",
    description: "artillery battalion of the United States Army",
    ref: "an artillery battalion",
    short: "the battalion",
    aliases: ["FAB", "F.A. Bn."],
  },
  {
    name: "Regimental Combat Team",
    description: "regimental combat team of the United States Army",
    ref: "a regimental combat team that fought in Italy",
    short: "the outfit",
    aliases: ["RCT"],
  },
  {
    name: "Naval Construction Battalion",
    description: "Seabee battalion of the United States Navy",
    ref: "a Navy construction battalion",
    short: "the battalion",
    aliases: ["NCB", "Seabees"],
  },
];

const MILITARY_UNIT_MAKER: DraftMaker = (r) => {
  const n = 1 + r.int(120);
  const pattern = r.pick(UNIT_PATTERNS);
  const aliases = pattern.aliases.map((suffix) => `${ordinal(n)} ${suffix}`);
  const word = ORDINAL_WORDS[n - 1];
  if (word !== undefined) {
    aliases.push(`${word} ${pattern.name}`);
  }
  return draft(`${ordinal(n)} ${pattern.name}`, pattern.description, pattern.ref, pattern.short, aliases);
};

const OTHER_MAKERS: WeightedMaker[] = [
  {
    weight: 2,
    make: (r) => {
      const base = root(r);
      return draft(`USS ${base}`, "United States Navy ship", "a destroyer in the Pacific", "the ship", [
        `U.S.S. ${base}`,
        `USS ${base} (DD-${100 + r.int(800)})`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      const when = year(r, 1900, 1990);
      return draft(`${base} Act of ${when}`, "United States federal law", `the new law Congress passed in ${when}`, "the law", [`${base} Act`]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const title = `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} Program`;
      return draft(title, "United States government program", "a government program for farm families", "the program", [
        title.replace("Program", "Prog."),
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const surname = r.pick(SURNAMES);
      return draft(`${surname} Medal`, "American award for service", "an award they gave me for my service", "the medal", [
        `${surname} medal`,
      ]);
    },
  },
  {
    weight: 1,
    make: (r) => {
      const base = root(r);
      return draft(`${base} Limited`, "American passenger train", "the passenger train that ran through town", "the train", [
        `The ${base} Limited`,
      ]);
    },
  },
];

function pickWeighted(random: SeededRandom, makers: readonly WeightedMaker[]): DraftMaker {
  const total = makers.reduce((sum, maker) => sum + maker.weight, 0);
  let roll = random.next() * total;
  for (const maker of makers) {
    roll -= maker.weight;
    if (roll < 0) {
      return maker.make;
    }
  }
  const last = makers[makers.length - 1];
  if (last === undefined) {
    throw new Error("no draft makers");
  }
  return last.make;
}

const MAKERS_BY_TYPE: Record<EntityType, readonly WeightedMaker[]> = {
  Place: PLACE_MAKERS,
  Organization: ORGANIZATION_MAKERS,
  Person: [{ weight: 1, make: PERSON_MAKER }],
  Event: EVENT_MAKERS,
  Work: WORK_MAKERS,
  "Military Unit": [{ weight: 1, make: MILITARY_UNIT_MAKER }],
  Other: OTHER_MAKERS,
};

/** One draft of the given type; the caller retries when the name is taken. */
export function makeEntityDraft(random: SeededRandom, type: EntityType): EntityDraft {
  return pickWeighted(random, MAKERS_BY_TYPE[type])(random);
}
