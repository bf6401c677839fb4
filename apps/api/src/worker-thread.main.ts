/** The entry of the embedded profile's worker thread: the worker of the contexts this app serves. */
import 'reflect-metadata';
import { serveWorkerThread } from '@tally/runtime';
import { CONTEXTS } from '../../contexts';

serveWorkerThread(CONTEXTS);
