/**
 * The choices a user or a team makes one of at a time (the database of a project, the editor, the framework), and the
 * names of what is chosen: how supersession tells that "MySQL" and "PostgreSQL" answer the same question while
 * "Python" and "React" do not. Aliases name their choice's one spelling ("postgres" is "postgresql").
 */

const CHOICES: Record<string, readonly string[]> = {
  database: [
    'postgresql',
    'postgres=postgresql',
    'mysql',
    'mariadb',
    'sqlite',
    'mongodb',
    'mongo=mongodb',
    'redis',
    'dynamodb',
    'cassandra',
    'cockroachdb',
    'supabase',
    'firebase',
    'oracle',
    'sql server',
    'couchdb',
    'neo4j',
    'elasticsearch',
  ],
  editor: [
    'vim',
    'neovim',
    'nvim=neovim',
    'emacs',
    'helix',
    'vs code=vscode',
    'vscode',
    'visual studio code=vscode',
    'sublime text',
    'sublime=sublime text',
    'intellij',
    'webstorm',
    'pycharm',
    'zed',
    'nano',
    'cursor',
    'atom',
    'xcode',
    'eclipse',
  ],
  language: [
    'python',
    'rust',
    'go',
    'golang=go',
    'java',
    'javascript',
    'typescript',
    'ruby',
    'php',
    'c#',
    'c++',
    'kotlin',
    'swift',
    'scala',
    'elixir',
    'haskell',
    'clojure',
    'ocaml',
    'zig',
    'dart',
    'lua',
    'perl',
  ],
  'frontend framework': [
    'react',
    'vue',
    'angular',
    'svelte',
    'sveltekit',
    'next.js',
    'nextjs=next.js',
    'nuxt',
    'remix',
    'solid',
    'astro',
    'htmx',
    'ember',
  ],
  'backend framework': [
    'django',
    'flask',
    'fastapi',
    'rails',
    'ruby on rails=rails',
    'express',
    'spring',
    'laravel',
    'phoenix',
    'nestjs',
    'fastify',
    'hono',
  ],
  'operating system': [
    'linux',
    'windows',
    'macos',
    'mac os=macos',
    'ubuntu',
    'debian',
    'fedora',
    'arch linux',
    'arch=arch linux',
    'nixos',
    'freebsd',
  ],
  shell: ['bash', 'zsh', 'fish', 'powershell', 'nushell'],
  browser: ['chrome', 'firefox', 'safari', 'edge', 'brave', 'arc', 'vivaldi', 'opera'],
  cloud: ['aws', 'gcp', 'google cloud=gcp', 'azure', 'digitalocean', 'hetzner', 'fly.io', 'vercel', 'netlify', 'heroku', 'cloudflare'],
  'package manager': ['npm', 'yarn', 'pnpm', 'bun', 'pip', 'poetry', 'uv', 'conda'],
  'test framework': ['jest', 'vitest', 'mocha', 'pytest', 'jasmine', 'playwright', 'cypress'],
  'ci service': ['github actions', 'gitlab ci', 'jenkins', 'circleci', 'travis ci', 'buildkite'],
  'container runtime': ['docker', 'podman'],
  'state management': ['redux', 'mobx', 'zustand', 'recoil', 'jotai'],
  'css framework': ['tailwind', 'tailwind css=tailwind', 'bootstrap', 'bulma'],
  bundler: ['webpack', 'vite', 'rollup', 'esbuild', 'parcel', 'turbopack'],
  phone: ['iphone', 'android', 'pixel'],
  'note-taking app': ['notion', 'obsidian', 'evernote', 'logseq', 'bear'],
  indentation: ['tabs', 'spaces'],
};

/** Nouns that name a choice rather than make one: "the database", "my editor", "a framework". */
const CHOICE_NOUNS: Record<string, string> = {
  database: 'database',
  db: 'database',
  databases: 'database',
  editor: 'editor',
  editors: 'editor',
  ide: 'editor',
  language: 'language',
  'programming language': 'language',
  'frontend framework': 'frontend framework',
  'backend framework': 'backend framework',
  os: 'operating system',
  'operating system': 'operating system',
  distro: 'operating system',
  shell: 'shell',
  browser: 'browser',
  cloud: 'cloud',
  'cloud provider': 'cloud',
  host: 'cloud',
  hosting: 'cloud',
  'package manager': 'package manager',
  'test framework': 'test framework',
  'test runner': 'test framework',
  ci: 'ci service',
  bundler: 'bundler',
  phone: 'phone',
  indentation: 'indentation',
};

export interface Choice {
  /** What is chosen: "database". */
  category: string;
  /** The chosen thing's one spelling: "postgresql". */
  term: string;
}

/** Every spelling → its choice; multi-word names are looked up by their first word's entry. */
const TERMS = new Map<string, Choice>();
const LONGEST_TERM_WORDS = 4;
for (const [category, names] of Object.entries(CHOICES)) {
  for (const name of names) {
    const [spelling = name, term = spelling] = name.split('=');
    TERMS.set(spelling, { category, term });
  }
}

/** Every spelling of the things of a choice: what a key that names one may start with. */
export function termsOf(category: string): string[] {
  return (CHOICES[category] ?? []).map((name) => name.split('=')[0] ?? name);
}

/** Lower-case words, punctuation that names keep ("next.js", "c++", "c#") kept. */
export function nameWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}.+#'-]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu) ?? [];
}

/** The first chosen thing named among the words, and where it stands; longest spelling first ("sublime text" over "sublime"). */
export function findChoice(words: readonly string[]): (Choice & { at: number; length: number }) | undefined {
  for (let at = 0; at < words.length; at++) {
    const choice = choiceAt(words, at);
    if (choice !== undefined) return { ...choice, at };
  }
  return undefined;
}

/** The chosen thing whose spelling starts at word `at`, and how many words it takes; longest spelling first. */
export function choiceAt(words: readonly string[], at: number): (Choice & { length: number }) | undefined {
  for (let n = Math.min(LONGEST_TERM_WORDS, words.length - at); n >= 1; n--) {
    const choice = TERMS.get(words.slice(at, at + n).join(' '));
    if (choice !== undefined) return { ...choice, length: n };
  }
  return undefined;
}

/** The choice a phrase names ("the database", "my editor"), or undefined when it names none. */
export function choiceNamed(text: string): string | undefined {
  const words = nameWords(text).filter((w) => !DETERMINERS.has(w));
  return CHOICE_NOUNS[words.join(' ')];
}

const DETERMINERS = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'this', 'that', 'which']);
