import { MemoryRunStore } from '../../lib';
import { describeCallIdentity } from './call-identity-suite';
import { describeRunStore } from './run-store-suite';

describeRunStore('MemoryRunStore', async (clock) => new MemoryRunStore({ clock }));
describeCallIdentity('MemoryRunStore', async () => new MemoryRunStore());
