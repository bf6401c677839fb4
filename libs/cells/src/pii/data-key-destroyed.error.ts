/** Personal data cannot be encrypted for a subject whose data key has been destroyed (erased). */
export class DataKeyDestroyedError extends Error {
  constructor(readonly subjectId: string) {
    super(`the data key of ${subjectId} has been destroyed`);
    this.name = 'DataKeyDestroyedError';
  }
}
