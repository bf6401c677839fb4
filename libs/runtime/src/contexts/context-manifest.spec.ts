import { Module } from '@nestjs/common';
import type { Projection } from '../projections/projection';
import { composeContexts, publicEventTypesOf, type ContextManifest } from './context-manifest';

@Module({})
class NotesModule {}

const notes: Projection = {
  name: 'notes',
  streamPrefixes: ['note-'],
  collections: [],
  publishes: { aggregateType: 'note', publicTypes: ['note.created', 'note.updated'], publicType: () => 'note.updated' },
  handle: async () => undefined,
};

const notesContext: ContextManifest = {
  name: 'notes',
  module: NotesModule,
  apiSections: [{ name: 'notes', description: 'Notes', order: 20 }],
  projections: [notes],
  publicEventTypes: ['note.archived'],
};
const tagsContext: ContextManifest = { name: 'tags', module: NotesModule, apiSections: [{ name: 'tags', description: 'Tags', order: 10 }] };

describe('composeContexts', () => {
  it('collects a context’s public event types from its views, then its extras', () => expect(publicEventTypesOf(notesContext)).toEqual(['note.created', 'note.updated', 'note.archived']));

  it('gives every context’s sections in their order, and the catalogue of every public event type', () => {
    const composed = composeContexts([notesContext, tagsContext]);
    expect(composed.apiSections.map((section) => section.name)).toEqual(['tags', 'notes']);
    expect(composed.publicEventTypes).toEqual(['note.created', 'note.updated', 'note.archived']);
  });
});
