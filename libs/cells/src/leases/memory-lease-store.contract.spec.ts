import { MemoryLeaseStore } from './memory-lease-store';
import { describeLeaseStoreContract } from './testing/lease-store.contract';

describeLeaseStoreContract('MemoryLeaseStore', async () => ({ store: new MemoryLeaseStore(), cleanup: async () => undefined }));
