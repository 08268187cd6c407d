/**
 * First-person statements of the kinds extraction reads (preferences, tools, decisions, where one lives and works,
 * favourites), over a vocabulary wide enough that a key of 10k facts holds thousands of different objects: the
 * paraphrase and supersession lookups of a new fact then read posting lists and key ranges of a realistic length,
 * some of them holding the same fact said before, or the one it replaces.
 */
import { pick } from './text.ts';

const ADJECTIVES = (
  'spicy sweet bitter dark light strong mild fresh roasted smoked iced hot cold crispy vegan organic homemade ' +
  'quiet noisy early late long short remote local small large old new fast slow cheap expensive classic modern ' +
  'minimal colourful wooden mechanical wireless portable electric acoustic tiny huge rustic urban sunny rainy ' +
  'foggy snowy salty sour creamy grilled baked steamed raw frozen tropical nordic alpine coastal vintage retro ' +
  'handmade digital analog japanese italian mexican indian korean greek french turkish lebanese'
).split(' ');
const NOUNS = (
  'ramen coffee tea chocolate pasta curry salad bread cheese sushi tacos noodles soup pizza burgers dumplings ' +
  'mornings evenings weekends meetings walks runs hikes trains flights hotels cabins beaches mountains museums ' +
  'keyboards monitors headphones notebooks pens desks chairs lamps bikes cars boats guitars pianos drums novels ' +
  'podcasts movies comedies thrillers documentaries puzzles crosswords lemonade smoothies pancakes waffles ' +
  'omelettes risotto lasagna falafel hummus kebabs paella ramen burritos croissants bagels muffins cookies ' +
  'festivals concerts operas ballets markets gardens parks lakes rivers forests deserts islands villages ' +
  'sneakers jackets scarves watches cameras tablets laptops speakers blankets candles plants'
).split(' ');
const PLACES = (
  'Lisbon Berlin Porto Madrid Oslo Vienna Prague Dublin Krakow Lyon Turin Ghent Utrecht Bergen Tallinn Riga ' +
  'Seville Bologna Leipzig Graz Malmo Aarhus Bilbao Nantes'
).split(' ');
const COMPANIES = (
  'Acme Robotics|Globex|Initech|Umbrella Labs|Stark Industries|Wayne Analytics|Hooli|Vandelay Imports|Soylent Foods|' +
  'Cyberdyne Systems|Tyrell Works|Massive Dynamic|Aperture Science|Wonka Candy|Pied Piper|Oscorp'
).split('|');
const TOOLS = (
  'Vim Emacs Neovim Helix Postgres MySQL SQLite Redis Kafka Docker Podman Kubernetes Nomad Terraform Ansible ' +
  'React Vue Svelte Angular Rust Go Python Kotlin Swift Zig Elixir Deno Bun Node Vite Webpack Jest Vitest'
).split(' ');
const PURPOSES = (
  'the billing service|the mobile app|the data pipeline|the admin dashboard|side projects|the search backend|' +
  'the test suite|the deploy scripts|the reporting jobs|the public website|the queue workers|the auth service'
).split('|');
const FAVOURITES = 'colour|season|city|editor|language|dish|band|sport|board game|font|drink|author'.split('|');
const LIKES = ['like', 'love', 'enjoy', 'prefer', 'really like', 'like', 'love', 'enjoy', 'like', 'dislike'];

const thing = (r: () => number) => `${pick(r, ADJECTIVES)} ${pick(r, NOUNS)}`;

/**
 * Mostly likes and tools, as users talk; now and then a dislike, a decision, a switch of tool, a move, a new job or a
 * new favourite (each replaces what it contradicts).
 */
const STATEMENTS: ((r: () => number) => string)[] = [
  ...Array.from({ length: 24 }, () => (r: () => number) => `I ${pick(r, LIKES)} ${thing(r)}.`),
  ...Array.from({ length: 6 }, () => (r: () => number) => `I ${pick(r, LIKES)} ${thing(r)} on ${pick(r, NOUNS)}.`),
  (r) => `I use ${pick(r, TOOLS)} for ${pick(r, PURPOSES)}.`,
  (r) => `I don't like ${thing(r)}.`,
  (r) => `I use ${pick(r, TOOLS)}.`,
  (r) => `I decided to use ${pick(r, TOOLS)} for ${pick(r, PURPOSES)}.`,
  (r) => `I switched from ${pick(r, TOOLS)} to ${pick(r, TOOLS)}.`,
  (r) => `I live in ${pick(r, PLACES)}.`,
  (r) => `I work at ${pick(r, COMPANIES)}.`,
  (r) => `My favourite ${pick(r, FAVOURITES)} is ${pick(r, ADJECTIVES)} ${pick(r, NOUNS)}.`,
];

/** One first-person statement that extraction turns into a fact. */
export const factStatement = (r: () => number) => pick(r, STATEMENTS)(r);

/** A user message of `count` statements, as a chat turn that says a few things about the user. */
export function factMessage(r: () => number, count: number): string {
  return Array.from({ length: count }, () => factStatement(r)).join(' ');
}
