import { join } from 'node:path';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import { KnowledgeIndex } from '../../lib/modules/knowledge/knowledge-index';
import { SqliteMemory } from '../../lib/modules/memory/sqlite-memory';
import { SqliteNoteStore } from '../../lib/modules/memory/sqlite-note-store';
import { makeTempDir } from './temp-dir';

const dir = makeTempDir('shared-file');
afterAll(() => dir.cleanup());

/** A wuwe module that keeps its tables in a SQLite file: opens it, writes one thing, checks it reads it back. */
interface ModuleUse {
  readonly name: string;
  readonly open: (path: string) => { write: () => void; check: () => void; close: () => void };
}

const MODULES: readonly ModuleUse[] = [
  {
    name: 'SqliteMemory',
    open: (path) => {
      const memory = new SqliteMemory(path);
      return {
        write: () => memory.append('m-run', { role: 'user', content: 'remembered' }),
        check: () => expect(memory.messages('m-run')).toEqual([{ role: 'user', content: 'remembered' }]),
        close: () => memory.close(),
      };
    },
  },
  {
    name: 'SqliteNoteStore',
    open: (path) => {
      const notes = new SqliteNoteStore(path);
      return {
        write: () => void notes.remember({ namespace: 'n', key: 'k', text: 'shared file note', tags: [] }),
        check: () =>
          expect(notes.recall({ namespace: 'n', query: 'note', limit: 5 }).map((match) => match.key)).toEqual(['k']),
        close: () => notes.close(),
      };
    },
  },
  {
    name: 'KnowledgeIndex',
    open: (path) => {
      const index = new KnowledgeIndex(path);
      return {
        write: () => void index.addDocument({ source: 'doc.md', text: '# Shared\nOne file for everything.' }),
        check: () => expect(index.search('everything').length).toBeGreaterThan(0),
        close: () => index.close(),
      };
    },
  },
];

async function useStore(path: string, runId: string): Promise<void> {
  const store = new SqliteRunStore(path);
  try {
    if (!(await store.loadRun(runId))) await store.createRun({ runId });
    expect((await store.loadRun(runId))!.runId).toBe(runId);
  } finally {
    await store.close();
  }
}

let counter = 0;
const nextPath = (): string => join(dir.path, `shared-${++counter}.db`);

describe('one SQLite file shared by the run store and the modules', () => {
  for (const module of MODULES) {
    it(`${module.name} first, then SqliteRunStore`, async () => {
      const path = nextPath();
      const opened = module.open(path);
      opened.write();
      opened.close();
      await useStore(path, 'r');
      const again = module.open(path);
      again.check();
      again.close();
    });

    it(`SqliteRunStore first, then ${module.name}`, async () => {
      const path = nextPath();
      await useStore(path, 'r');
      const opened = module.open(path);
      opened.write();
      opened.check();
      opened.close();
      await useStore(path, 'r');
    });
  }

  it('every module and the store, in every order', async () => {
    const orders = permutations([...MODULES.map((module) => module.name), 'SqliteRunStore']);
    for (const order of orders) {
      const path = nextPath();
      for (const name of order) {
        if (name === 'SqliteRunStore') await useStore(path, 'r');
        else {
          const opened = MODULES.find((module) => module.name === name)!.open(path);
          opened.write();
          opened.close();
        }
      }
      await useStore(path, 'r');
      for (const module of MODULES) {
        const opened = module.open(path);
        opened.check();
        opened.close();
      }
    }
  });
});

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}
