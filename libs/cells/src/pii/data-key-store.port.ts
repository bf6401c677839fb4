/**
 * Holds one AES-256 data key per data subject (a customer). Destroying the key is how personal
 * data is erased from an immutable log (crypto-shredding), so a destroyed key is never recreated.
 */
export interface DataKeyStore {
  /** The subject's key, created on first use. Throws DataKeyDestroyedError once destroyed. */
  getOrCreate(subjectId: string): Promise<Buffer>;
  /** The subject's key, or undefined when it was never created or has been destroyed. */
  get(subjectId: string): Promise<Buffer | undefined>;
  /** Destroys the key for good; destroying twice, or a key never created, is fine. */
  destroy(subjectId: string): Promise<void>;
}
