import type { EntityType } from "@/lib/core/dataset/release-schema";
import type { SeededRandom } from "@/testing/synthetic/seeded-random";
import { HOME_GOODS, RELATIVES, STATES, WORKPLACES } from "@/testing/synthetic/synth-words";

/** The 11 thematic collections of the paper (section 3.2), in the paper's order. */
export const PAPER_COLLECTIONS = [
  "Veterans",
  "Immigration",
  "Regional",
  "Depression Era",
  "Japanese American",
  "Academic",
  "September 11",
  "Civil Rights",
  "COVID-19",
  "Labor",
  "Refugee",
] as const;
export type PaperCollection = (typeof PAPER_COLLECTIONS)[number];

/**
 * First-person narratives for the synthetic release, built like the paper's
 * EGN/EEN pairs (section 3.7): the same sentences, once with the entity's
 * name (explicit_text) and once with a sentence-local description in its
 * place (implicit_text). {REF} is the first mention, {REF2} a later one.
 */

const ANCHORS: Record<EntityType, readonly string[]> = {
  Place: [
    "I was born near {REF} in {year}.",
    "My family moved out to {REF} when I was {age} years old.",
    "After the war I settled near {REF} and found work at the {workplace}.",
    "We spent most of the {decade}s around {REF}, where my {relative} worked at the {workplace}.",
    "I remember the first time I saw {REF}; I was about {age}.",
  ],
  Organization: [
    "In {year} I got a job at {REF}.",
    "My {relative} worked for {REF} for almost {count} years.",
    "I first heard about {REF} from a neighbor back in {state}.",
    "When I was {age}, I started going to meetings at {REF}.",
  ],
  Person: [
    "I first met {REF} in {year}.",
    "In the {decade}s I worked alongside {REF} in {state}.",
    "My {relative} introduced me to {REF} at a meeting in {year}.",
    "{REF} came to speak to us when I was about {age}.",
  ],
  Event: [
    "I lived through {REF}.",
    "My {relative} never talked much about {REF}.",
    "I was {age} years old at the time of {REF}.",
    "We heard about {REF} on the radio that evening.",
  ],
  Work: [
    "I first came across {REF} when I was {age}.",
    "My {relative} loved {REF} and shared it with all of us.",
    "We talked about {REF} for weeks in {year}.",
  ],
  "Military Unit": [
    "In {year} I was assigned to {REF}.",
    "I served with {REF} until the end of the war.",
    "My {relative} was with {REF} overseas.",
    "I joined {REF} as a replacement when I was {age}.",
  ],
  Other: [
    "I remember when {REF} came into our lives in {year}.",
    "My {relative} always talked about {REF}.",
    "In {year} everyone in {state} was talking about {REF}.",
    "I did not understand {REF} until I was much older.",
  ],
};

const FOLLOW_UPS: Record<EntityType, readonly string[]> = {
  Place: [
    "Everybody around {REF2} knew my {relative}.",
    "Life near {REF2} was hard, but people looked out for each other.",
    "I went back to {REF2} many years later and hardly recognized it.",
  ],
  Organization: [
    "{REF2} was the biggest thing in our part of {state}.",
    "People still talk about {REF2} when they get together.",
    "I stayed with {REF2} longer than I ever expected to.",
  ],
  Person: [
    "I never forgot the way {REF2} talked to people.",
    "Later on {REF2} helped my family when we needed it most.",
    "Everyone in the room went quiet when {REF2} stood up.",
  ],
  Event: [
    "After {REF2}, nothing in our town was the same.",
    "{REF2} changed the way people in {state} thought about things.",
    "I still dream about {REF2} some nights.",
  ],
  Work: [
    "Even now {REF2} reminds me of those years.",
    "I still think about {REF2} sometimes.",
    "My children never understood why {REF2} meant so much to me.",
  ],
  "Military Unit": [
    "The men in {REF2} were like brothers to me.",
    "{REF2} lost a lot of good men that year.",
    "I still write to a few of the fellows from {REF2}.",
  ],
  Other: [
    "Without {REF2} I don't know what we would have done.",
    "{REF2} made a big difference for people like us.",
    "I still have a photograph that reminds me of {REF2}.",
  ],
};

const GENERAL_CONTEXT: readonly string[] = [
  "My {relative} worked at the {workplace} for {count} years.",
  "We did not have much money, but we always had enough to eat.",
  "In {year} we finally bought {goods}.",
  "I was the oldest of {kids} children.",
  "Those were hard years for everybody in {state}.",
  "I still remember the smell of the {workplace} in the morning.",
  "My {relative} used to say that hard work never hurt anybody.",
  "We went to church every Sunday, rain or shine.",
];

const COLLECTION_CONTEXT: Record<PaperCollection, readonly string[]> = {
  Veterans: [
    "I enlisted in {year}, right out of high school.",
    "We shipped out from the West Coast on a troop transport.",
    "When I came home, I did not talk about the war for a long time.",
  ],
  Immigration: [
    "My parents came over on a ship when I was {age}.",
    "I had to learn English in school, and the other children laughed at my accent.",
    "We sent money back to relatives in the old country every month.",
  ],
  Regional: [
    "Our county had one paved road back then.",
    "Everybody went to the county fair in August.",
    "The nearest doctor was a two-hour ride by wagon.",
  ],
  "Depression Era": [
    "When the bank closed, we lost everything we had saved.",
    "My {relative} stood in the bread line for hours.",
    "We took in boarders to make ends meet.",
  ],
  "Japanese American": [
    "In the spring of 1942 we were given a few days to sell what we could.",
    "We lived behind barbed wire for three years.",
    "After the war we had to start over from nothing.",
  ],
  Academic: [
    "I finished my doctorate in {year} and went looking for a teaching job.",
    "The department was small, and we all knew each other.",
    "My students kept me young.",
  ],
  "September 11": [
    "That Tuesday morning in September started like any other day.",
    "For weeks afterwards the city smelled of smoke.",
    "I still cannot watch the footage.",
  ],
  "Civil Rights": [
    "We were trained to stay calm when they spat at us.",
    "My {relative} lost a job for registering to vote.",
    "We met in church basements to plan what to do next.",
  ],
  "COVID-19": [
    "In March 2020 everything shut down almost overnight.",
    "I did not see my grandchildren for more than a year.",
    "We wore masks everywhere and wiped down the groceries.",
  ],
  Labor: [
    "We walked the picket line in the rain for weeks.",
    "The foreman kept a list of everyone who went to the union meetings.",
    "We finally got a contract with better wages.",
  ],
  Refugee: [
    "We left with only what we could carry.",
    "We spent two years in a camp before a sponsor was found for us.",
    "Everything in the new country felt strange at first.",
  ],
};

const YEARS_BY_COLLECTION: Record<PaperCollection, readonly [number, number]> = {
  Veterans: [1941, 1975],
  Immigration: [1900, 1990],
  Regional: [1920, 1990],
  "Depression Era": [1929, 1939],
  "Japanese American": [1940, 1950],
  Academic: [1950, 2000],
  "September 11": [2001, 2003],
  "Civil Rights": [1954, 1968],
  "COVID-19": [2020, 2021],
  Labor: [1930, 1980],
  Refugee: [1975, 2015],
};

export type NarrativePair = { implicitText: string; explicitText: string };

export type NarrativeEntity = {
  type: EntityType;
  name: string;
  implicitRef: string;
  implicitShortRef: string;
};

function capitalize(sentence: string): string {
  return sentence.length === 0 ? sentence : sentence[0]?.toUpperCase() + sentence.slice(1);
}

function fillSlots(template: string, slots: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Z0-9a-z]+)\}/g, (whole, key: string) => slots[key] ?? whole);
}

function pickDistinct(random: SeededRandom, items: readonly string[], count: number): string[] {
  return random.shuffle(items).slice(0, count);
}

/** 3-5 first-person sentences; the explicit text names the entity, the implicit one never does. */
export function writeNarrative(random: SeededRandom, entity: NarrativeEntity, collection: PaperCollection): NarrativePair {
  const [from, to] = YEARS_BY_COLLECTION[collection];
  const when = from + random.int(to - from + 1);
  const slots: Record<string, string> = {
    year: String(when),
    decade: String(Math.floor(when / 10) * 10),
    age: String(6 + random.int(40)),
    count: String(3 + random.int(30)),
    kids: String(3 + random.int(8)),
    state: random.pick(STATES),
    relative: random.pick(RELATIVES),
    workplace: random.pick(WORKPLACES),
    goods: random.pick(HOME_GOODS),
  };
  const sentenceCount = 3 + random.int(3);
  const hasFollowUp = random.chance(0.6);
  const contextCount = sentenceCount - 1 - (hasFollowUp ? 1 : 0);
  const contexts = pickDistinct(random, [...COLLECTION_CONTEXT[collection], ...GENERAL_CONTEXT], contextCount);
  const templates = [random.pick(ANCHORS[entity.type]), ...contexts];
  if (hasFollowUp) {
    const position = 1 + random.int(templates.length);
    templates.splice(position, 0, random.pick(FOLLOW_UPS[entity.type]));
  }
  const render = (ref: string, shortRef: string): string =>
    templates.map((template) => capitalize(fillSlots(template, { ...slots, REF: ref, REF2: shortRef }))).join(" ");
  return {
    implicitText: render(entity.implicitRef, entity.implicitShortRef),
    explicitText: render(entity.name, entity.name),
  };
}

/** A narrative with no entity reference at all: the fallback when every rewrite leaked. */
export const NEUTRAL_NARRATIVE =
  "I remember those years very well. We talked about it at the kitchen table for a long time. Nobody in my family ever forgot it.";
