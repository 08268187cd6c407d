/**
 * The belief-update set: short scripted conversations in which the user changes what is true about them, and traps in
 * which nothing of theirs changes (someone else's news, another object, a supposition, a question, a quotation, a
 * plan). Written for mnemo, run by `npm run eval -- --mode beliefs` and test/eval/beliefs.test.ts through extraction
 * and supersession. A memory is named by a case-insensitive part of its content.
 */

/** The rule a change case exercises. */
export type ChangeKind = 'single_value' | 'polarity' | 'explicit_change' | 'decision' | 'preference_reversal';
/** What a trap tries: none of them may supersede anything. */
export type TrapKind = 'other_person' | 'other_object' | 'hypothetical' | 'question' | 'quote' | 'plan' | 'restatement';

export interface BeliefCase {
  kind: ChangeKind | TrapKind;
  /** The user's messages, in order. */
  messages: string[];
  /** Memories current at the end. */
  current: string[];
  /** Memories superseded by the end: empty for a trap. */
  stale: string[];
  /** A question about the slot, asked once the conversation is in: how many stale facts its injected block holds. */
  question: string;
}

const TRAPS = new Set<BeliefCase['kind']>(['other_person', 'other_object', 'hypothetical', 'question', 'quote', 'plan', 'restatement']);
export const isTrap = (c: BeliefCase) => TRAPS.has(c.kind);

const change = (kind: ChangeKind, messages: string[], current: string[], stale: string[], question: string): BeliefCase => ({
  kind,
  messages,
  current,
  stale,
  question,
});
const trap = (kind: TrapKind, messages: string[], current: string[], question: string): BeliefCase => ({
  kind,
  messages,
  current,
  stale: [],
  question,
});

const WHERE = 'Where do I live?';
const JOB = 'Where do I work?';
const EDITOR = 'Which editor do I use?';
const DATABASE = 'Which database are we using for the project?';
const INDENT = 'Do I prefer tabs or spaces?';

const moves: [string, string, string][] = [
  ['I live in Lyon.', 'I moved to Berlin last month.', 'Berlin'],
  ['I live in Porto.', "We've just moved to Lisbon.", 'Lisbon'],
  ['I live in Toronto.', 'I relocated to Vancouver in 2024.', 'Vancouver'],
  ['I live in Austin.', 'I moved from Austin to New York City a few weeks ago.', 'New York City'],
  ["I'm based in Madrid.", 'I moved to Barcelona recently.', 'Barcelona'],
  ['I live in Oslo.', 'I live in Bergen now.', 'Bergen'],
  ['I live in Munich.', "I'm now based in Hamburg.", 'Hamburg'],
  ['I live in Seattle with my partner.', 'We moved to Portland this year.', 'Portland'],
  ['I live in Kyoto.', 'We have finally moved to Osaka.', 'Osaka'],
  ['I live in Dublin.', 'Last year I moved to Cork.', 'Cork'],
];

const jobs: [string, string, string, string][] = [
  ['I work at Acme.', 'I started working at Initech.', 'Works at Initech', 'Works at Acme'],
  ['I work for Globex.', 'I got a new job at Hooli.', 'Works at Hooli', 'Works for Globex'],
  ['I work at Stark Industries.', 'I work at Wayne Enterprises now.', 'Works at Wayne Enterprises', 'Works at Stark Industries'],
  ['I work at Umbrella.', 'I took a new job at Cyberdyne.', 'Works at Cyberdyne', 'Works at Umbrella'],
  ['I work at Contoso.', 'I quit my job at Contoso.', 'No longer works at Contoso', 'Works at Contoso'],
  ['I work at Vandelay.', "I don't work at Vandelay anymore.", 'No longer works at Vandelay', 'Works at Vandelay'],
  ['I work for Soylent.', 'I no longer work for Soylent.', 'No longer works at Soylent', 'Works for Soylent'],
];

export const BELIEF_CASES: readonly BeliefCase[] = [
  // Single-valued slots: where the user lives, works, what they are called and what they do, their favourites.
  ...moves.map(([before, after, city]) =>
    change('single_value', [before, 'Can you suggest a weekend plan?', after], [city], [before.match(/in (\p{Lu}\p{L}+)/u)![1]!], WHERE),
  ),
  change(
    'single_value',
    ["I'm a student.", 'I became a data scientist.'],
    ['Is a data scientist'],
    ['Is a student'],
    'What do I do for a living?',
  ),
  change(
    'single_value',
    ["I'm a backend developer.", "I'm now an engineering manager."],
    ['engineering manager'],
    ['backend developer'],
    'What is my role?',
  ),
  change('single_value', ["I'm a teacher.", "I'm a software engineer now."], ['software engineer'], ['Is a teacher'], 'What is my job?'),
  change('single_value', ['My name is Sam.', 'I changed my name to Alex.'], ['Name is Alex'], ['Name is Sam'], 'What is my name?'),
  change('single_value', ['My name is Jo.', "Actually, my name's Joanna."], ['Name is Joanna'], ['Name is Jo'], 'What is my name?'),
  change(
    'single_value',
    ['My favourite editor is Vim.', 'Helix is my favourite editor.'],
    ['Favourite editor is Helix'],
    ['Favourite editor is Vim'],
    EDITOR,
  ),
  change(
    'single_value',
    ['My favorite color is blue.', 'My favorite color is green now.'],
    ['color is green'],
    ['color is blue'],
    'What is my favorite color?',
  ),
  change(
    'single_value',
    ['My favourite language is Go.', 'My favourite language is Rust these days.'],
    ['language is Rust'],
    ['language is Go'],
    'Which language do I like best?',
  ),
  change(
    'single_value',
    ['My favourite band is Muse.', 'Radiohead is my favourite band.'],
    ['band is Radiohead'],
    ['band is Muse'],
    'What is my favourite band?',
  ),
  change(
    'single_value',
    ['My favourite food is sushi.', 'My favourite food is ramen.'],
    ['food is ramen'],
    ['food is sushi'],
    'What food do I like best?',
  ),
  ...jobs.map(([before, after, now, was]) =>
    change(now.startsWith('No') ? 'explicit_change' : 'single_value', [before, after], [now], [was], JOB),
  ),

  // The same object, the other polarity.
  change('polarity', ['I like Python.', "I don't like Python anymore."], ['Dislikes Python'], ['Likes Python'], 'Do I like Python?'),
  change('polarity', ['I love Java.', 'I no longer like Java.'], ['Dislikes Java'], ['Loves Java'], 'How do I feel about Java?'),
  change('polarity', ['I enjoy running.', 'I hate running now.'], ['Hates running'], ['Enjoys running'], 'Do I enjoy running?'),
  change('polarity', ['I hate YAML.', 'Honestly I like YAML now.'], ['Likes YAML'], ['Hates YAML'], 'What do I think of YAML?'),
  change('polarity', ["I don't like coffee.", 'I love coffee now.'], ['Loves coffee'], ['Dislikes coffee'], 'Do I like coffee?'),
  change('polarity', ['I avoid ORMs.', 'I like ORMs these days.'], ['Likes ORMs'], ['Avoids ORMs'], 'Do I use ORMs?'),
  change(
    'polarity',
    ["We'll use Redux.", "We won't use Redux."],
    ['Decided not to use Redux'],
    ['Decided to use Redux'],
    'Are we using Redux?',
  ),
  change(
    'polarity',
    ["I'm going to use Docker.", "I'm not going to use Docker."],
    ['Decided not to use Docker'],
    ['Decided to use Docker'],
    'Do I use Docker?',
  ),
  change('polarity', ['I use Vim.', "I don't use Vim anymore."], ['No longer uses Vim'], ['Uses Vim'], EDITOR),
  change(
    'polarity',
    ["I'm using Firefox.", 'I no longer use Firefox.'],
    ['No longer uses Firefox'],
    ['Uses Firefox'],
    'Which browser do I use?',
  ),
  change('polarity', ["I don't work at Acme anymore.", 'I work at Acme again.'], ['Works at Acme'], ['No longer works at Acme'], JOB),
  change(
    'polarity',
    ['I want to learn Haskell.', "I don't want to learn Haskell."],
    ['Does not want to learn Haskell'],
    ['Wants to learn Haskell'],
    'Which languages do I want to learn?',
  ),

  // Explicit change phrasings.
  change('explicit_change', ['I use Vim.', 'I switched from Vim to Helix.'], ['Switched from Vim to Helix'], ['Uses Vim'], EDITOR),
  change('explicit_change', ['I use Vim every day.', "I've switched to Helix."], ['Switched to Helix'], ['Uses Vim every day'], EDITOR),
  change('explicit_change', ['I use VS Code.', 'I moved to Zed last week.'], ['Switched to Zed'], ['Uses VS Code'], EDITOR),
  change(
    'explicit_change',
    ["We'll use MySQL.", 'We migrated from MySQL to PostgreSQL last week.'],
    ['Switched from MySQL to PostgreSQL'],
    ['Decided to use MySQL'],
    DATABASE,
  ),
  change(
    'explicit_change',
    ["I'm using Chrome.", 'I switched to Firefox.'],
    ['Switched to Firefox'],
    ['Uses Chrome'],
    'Which browser do I use?',
  ),
  change(
    'explicit_change',
    ['I use npm.', 'We switched from npm to pnpm.'],
    ['Switched from npm to pnpm'],
    ['Uses npm'],
    'Which package manager do we use?',
  ),
  change(
    'explicit_change',
    ['I use Ubuntu.', 'I switched over to Fedora.'],
    ['Switched to Fedora'],
    ['Uses Ubuntu'],
    'Which Linux do I run?',
  ),
  change(
    'explicit_change',
    ["I'm using Jest.", "We've moved from Jest to Vitest."],
    ['Switched from Jest to Vitest'],
    ['Uses Jest'],
    'Which test framework do we use?',
  ),
  change(
    'explicit_change',
    ['I use Notion for notes.', 'I switched from Notion to Obsidian.'],
    ['Switched from Notion to Obsidian'],
    ['Uses Notion for notes'],
    'Where do I keep notes?',
  ),
  change('explicit_change', ['I use Vim.', 'I stopped using Vim.'], ['Stopped using Vim'], ['Uses Vim'], EDITOR),
  change('explicit_change', ['I use Emacs.', 'I no longer use Emacs.'], ['No longer uses Emacs'], ['Uses Emacs'], EDITOR),
  change(
    'explicit_change',
    ["I'm using Webpack.", 'We gave up Webpack.'],
    ['Gave up Webpack'],
    ['Uses Webpack'],
    'Which bundler do we use?',
  ),
  change(
    'explicit_change',
    ["We're going to use Heroku.", 'We quit Heroku.'],
    ['Quit Heroku'],
    ['Decided to use Heroku'],
    'Where do we host?',
  ),
  change(
    'explicit_change',
    ["We'll use PostgreSQL.", "We'll use MySQL instead of PostgreSQL."],
    ['Decided to use MySQL'],
    ['Decided to use PostgreSQL'],
    DATABASE,
  ),
  change('explicit_change', ['I use Vim.', 'I use Helix instead of Vim now.'], ['Uses Helix'], ['Uses Vim'], EDITOR),
  change(
    'explicit_change',
    ["Let's use Jenkins.", "We're going to use GitHub Actions rather than Jenkins."],
    ['GitHub Actions'],
    ['Decided to use Jenkins'],
    'Which CI do we use?',
  ),
  change(
    'explicit_change',
    ["We'll use Redux.", 'I changed my mind about Redux.'],
    ['Changed their mind about Redux'],
    ['Decided to use Redux'],
    'Are we using Redux?',
  ),
  change(
    'explicit_change',
    ['We decided on PostgreSQL.', 'We changed our minds about the database.'],
    ['Changed their mind about the database'],
    ['Decided on PostgreSQL'],
    DATABASE,
  ),
  change(
    'explicit_change',
    ['I like Kotlin.', "I've changed my mind about Kotlin."],
    ['Changed their mind about Kotlin'],
    ['Likes Kotlin'],
    'Do I like Kotlin?',
  ),
  change(
    'explicit_change',
    ['We chose Svelte.', 'We changed our mind on Svelte.'],
    ['Changed their mind about Svelte'],
    ['Chose Svelte'],
    'Which framework did we pick?',
  ),

  // Decisions on one choice.
  change(
    'decision',
    ['We decided to use PostgreSQL for this project.', 'Actually we decided to use MySQL for this project instead.'],
    ['Decided to use MySQL for this project'],
    ['Decided to use PostgreSQL for this project'],
    DATABASE,
  ),
  change(
    'decision',
    ["We'll use React for the frontend.", "Let's go with Svelte for the frontend."],
    ['Decided to go with Svelte'],
    ['Decided to use React'],
    'Which frontend framework do we use?',
  ),
  change('decision', ['We chose MongoDB.', 'We went with PostgreSQL in the end.'], ['Chose PostgreSQL'], ['Chose MongoDB'], DATABASE),
  change(
    'decision',
    ["We're going to use AWS.", "We've decided on Hetzner."],
    ['Decided on Hetzner'],
    ['Decided to use AWS'],
    'Which cloud do we host on?',
  ),
  change(
    'decision',
    ["I'll use Flask for the API.", "I'll use FastAPI for the API."],
    ['Decided to use FastAPI'],
    ['Decided to use Flask'],
    'Which framework is the API on?',
  ),
  change(
    'decision',
    ["We'll use Jest.", "Let's use Vitest."],
    ['Decided to use Vitest'],
    ['Decided to use Jest'],
    'Which test framework do we use?',
  ),
  change(
    'decision',
    ['We decided to use Yarn.', 'We settled on pnpm.'],
    ['Chose pnpm'],
    ['Decided to use Yarn'],
    'Which package manager do we use?',
  ),
  change(
    'decision',
    ["We'll stick with Webpack.", "We're going to switch to Vite."],
    ['Decided to switch to Vite'],
    ['Decided to stick with Webpack'],
    'Which bundler do we use?',
  ),
  change(
    'decision',
    ["Let's use Python for the backend.", 'We decided to use Go for the backend.'],
    ['Decided to use Go for the backend'],
    ['Decided to use Python'],
    'Which language is the backend in?',
  ),
  change(
    'decision',
    ["We'll use Tailwind.", 'We opted for Bootstrap.'],
    ['Chose Bootstrap'],
    ['Decided to use Tailwind'],
    'Which CSS framework do we use?',
  ),
  change(
    'decision',
    ["We'll use Redis for caching.", "We'll use Redis for caching.", "We'll use MongoDB for caching."],
    ['MongoDB for caching'],
    ['Redis for caching'],
    'What do we cache with?',
  ),
  change(
    'decision',
    ['We decided to use Postgres for the app.', 'We decided to use SQLite for the app.'],
    ['SQLite for the app'],
    ['Postgres for the app'],
    DATABASE,
  ),

  // Preference reversals.
  change(
    'preference_reversal',
    ['I prefer tabs over spaces.', 'I prefer spaces over tabs.'],
    ['Prefers spaces over tabs'],
    ['Prefers tabs over spaces'],
    INDENT,
  ),
  change(
    'preference_reversal',
    ['I prefer tabs.', 'Now I prefer spaces over tabs.'],
    ['Prefers spaces over tabs'],
    ['Prefers tabs'],
    INDENT,
  ),
  change(
    'preference_reversal',
    ['I prefer dark mode over light mode.', 'I now prefer light mode over dark mode.'],
    ['light mode over dark mode'],
    ['dark mode over light mode'],
    'Which theme do I like?',
  ),
  change(
    'preference_reversal',
    ['I prefer tea over coffee.', 'These days I prefer coffee over tea.'],
    ['coffee over tea'],
    ['tea over coffee'],
    'Tea or coffee for me?',
  ),
  change(
    'preference_reversal',
    ['I prefer cats rather than dogs.', 'I prefer dogs rather than cats now.'],
    ['dogs rather than cats'],
    ['cats rather than dogs'],
    'Do I like cats or dogs?',
  ),
  change(
    'preference_reversal',
    ['I prefer trains over planes.', 'I prefer planes over trains.'],
    ['planes over trains'],
    ['trains over planes'],
    'How do I like to travel?',
  ),
  change(
    'preference_reversal',
    ['I prefer mornings.', 'I really prefer evenings over mornings.'],
    ['evenings over mornings'],
    ['Prefers mornings'],
    'When do I like to work?',
  ),
  change(
    'preference_reversal',
    ['I prefer REST over GraphQL.', 'I prefer GraphQL over REST.'],
    ['GraphQL over REST'],
    ['REST over GraphQL'],
    'REST or GraphQL?',
  ),

  // Traps: someone else.
  trap('other_person', ['I live in Berlin.', 'My sister lives in Lyon.'], ['Lives in Berlin'], WHERE),
  trap('other_person', ['I live in Berlin.', 'My sister moved to Lyon last month.'], ['Lives in Berlin'], WHERE),
  trap('other_person', ['I use Vim.', 'My brother switched from Vim to Helix.'], ['Uses Vim'], EDITOR),
  trap(
    'other_person',
    ['We decided to use PostgreSQL for this project.', 'My old team decided to use MySQL.'],
    ['PostgreSQL for this project'],
    DATABASE,
  ),
  trap('other_person', ['I work at Acme.', 'My wife works at Google.'], ['Works at Acme'], JOB),
  trap('other_person', ['I prefer tabs over spaces.', 'Tom prefers spaces over tabs.'], ['tabs over spaces'], INDENT),
  trap('other_person', ['I like Python.', "My friend doesn't like Python anymore."], ['Likes Python'], 'Do I like Python?'),
  trap('other_person', ['My name is Sam.', "My husband's name is Alex."], ['Name is Sam'], 'What is my name?'),
  trap('other_person', ['I live in Berlin.', 'My parents moved to Lyon and my sister moved to Nice.'], ['Lives in Berlin'], WHERE),

  // Traps: another object.
  trap('other_object', ['I like Python.', 'I like Rust.'], ['Likes Python', 'Likes Rust'], 'Which languages do I like?'),
  trap('other_object', ['I like Python.', "I don't like Java."], ['Likes Python', 'Dislikes Java'], 'Which languages do I like?'),
  trap('other_object', ['I use Vim.', 'I use VS Code for notebooks.'], ['Uses Vim', 'Uses VS Code'], EDITOR),
  trap(
    'other_object',
    ["We'll use PostgreSQL for the API.", "We'll use Redis for caching."],
    ['PostgreSQL for the API', 'Redis for caching'],
    DATABASE,
  ),
  trap(
    'other_object',
    ['We decided to use PostgreSQL for analytics.', 'We decided to use MySQL for the web app.'],
    ['PostgreSQL for analytics', 'MySQL for the web app'],
    DATABASE,
  ),
  trap('other_object', ['I use Python.', 'I stopped using Python 2.'], ['Uses Python'], 'Which Python do I use?'),
  trap(
    'other_object',
    ['My favourite editor is Helix.', 'My favourite language is Rust.'],
    ['editor is Helix', 'language is Rust'],
    EDITOR,
  ),
  trap('other_object', ['I prefer tabs over spaces.', 'I prefer Python over Ruby.'], ['tabs over spaces', 'Python over Ruby'], INDENT),
  trap(
    'other_object',
    ["We'll use React.", "We'll use Django for the backend."],
    ['Decided to use React', 'Django'],
    'Which frameworks do we use?',
  ),
  trap('other_object', ['I use Vim.', 'I switched from Chrome to Firefox.'], ['Uses Vim', 'Firefox'], EDITOR),
  trap('other_object', ['I live in Berlin.', 'I no longer live in Paris.'], ['Lives in Berlin'], WHERE),
  trap('other_object', ['I work at Acme.', 'I quit my job at Globex.'], ['Works at Acme'], JOB),

  // Traps: suppositions.
  trap('hypothetical', ['I live in Lyon.', 'If I moved to Berlin, would my rent go up?'], ['Lives in Lyon'], WHERE),
  trap('hypothetical', ['I use Vim.', 'Imagine I switched to Emacs tomorrow.'], ['Uses Vim'], EDITOR),
  trap(
    'hypothetical',
    ['We decided to use PostgreSQL.', 'Suppose we decided to use MySQL instead.'],
    ['Decided to use PostgreSQL'],
    DATABASE,
  ),
  trap('hypothetical', ['I work at Acme.', 'I wish I worked at Google.'], ['Works at Acme'], JOB),
  trap(
    'hypothetical',
    ['I prefer tabs over spaces.', 'If I preferred spaces over tabs, the linter would be happier.'],
    ['tabs over spaces'],
    INDENT,
  ),
  trap('hypothetical', ['I use MySQL.', 'If we switched from MySQL to PostgreSQL, would it be faster?'], ['Uses MySQL'], DATABASE),

  // Traps: questions.
  trap('question', ['I use Vim.', 'Should I switch to Helix?'], ['Uses Vim'], EDITOR),
  trap('question', ['I live in Lyon.', 'Would moving to Berlin be a good idea?'], ['Lives in Lyon'], WHERE),
  trap('question', ['I like Python.', 'Do I still like Python?'], ['Likes Python'], 'Do I like Python?'),
  trap('question', ['We decided to use PostgreSQL.', 'Should we use MySQL instead?'], ['Decided to use PostgreSQL'], DATABASE),
  trap('question', ['I use Vim.', 'Is it time to switch from Vim to Helix?'], ['Uses Vim'], EDITOR),
  trap('question', ['I work at Acme.', 'Why did I quit my job at Globex?'], ['Works at Acme'], JOB),

  // Traps: quotations and reported speech.
  trap('quote', ['I use Vim.', 'My coworker said "I switched to Emacs" at lunch.'], ['Uses Vim'], EDITOR),
  trap('quote', ['I live in Lyon.', 'She told me: I moved to Berlin.'], ['Lives in Lyon'], WHERE),
  trap(
    'quote',
    ['I prefer tabs over spaces.', '"I prefer spaces over tabs" is the first line of the style guide.'],
    ['tabs over spaces'],
    INDENT,
  ),
  trap('quote', ['I live in Lyon.', 'He thinks I moved to Berlin.'], ['Lives in Lyon'], WHERE),
  trap('quote', ['I work at Acme.', 'The recruiter wrote that I started working at Hooli.'], ['Works at Acme'], JOB),
  trap('quote', ['I like Python.', "The tweet said 'I don't like Python anymore'."], ['Likes Python'], 'Do I like Python?'),

  // Traps: plans and thoughts, not changes made.
  trap('plan', ['I use Vim.', "I'm thinking about switching from Vim to Helix."], ['Uses Vim'], EDITOR),
  trap('plan', ['I live in Lyon.', 'I might move to Berlin next year.'], ['Lives in Lyon'], WHERE),
  trap('plan', ['I work at Acme.', "I'm planning to quit my job at Acme."], ['Works at Acme'], JOB),
  trap('plan', ['I use Vim.', "I haven't switched to Helix."], ['Uses Vim'], EDITOR),

  // Traps: the same fact said again.
  trap('restatement', ['I live in Berlin.', "I'm based in Berlin."], ['Berlin'], WHERE),
  trap('restatement', ['I use Vim.', "I'm using Vim."], ['Vim'], EDITOR),
  trap('restatement', ['We decided to use PostgreSQL.', "We'll use Postgres."], ['PostgreSQL'], DATABASE),
];
