import { MemoryRunStore } from '../../lib/durable';
import { describeRunStore } from './run-store-suite';

describeRunStore('MemoryRunStore', async (clock) => new MemoryRunStore({ clock }));
