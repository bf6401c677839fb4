import { ApiTags } from '@nestjs/swagger';
import type { ApiSection } from '@tally/runtime';
import { EDGE_API_SECTIONS } from './edge-api-sections';

/** The sections of the API reference, in their order (see referenceSections). */
export const API_SECTIONS = Symbol('ApiSections');

/** Files a controller's routes under one section of the reference, as its context (or the API itself) declares it. */
export const ApiTag = (section: ApiSection): ClassDecorator => ApiTags(section.name);

/** Every section of the reference in its order: the contexts' and the API's own. Two sections of one name or one order cannot both be shown. */
export function referenceSections(contextSections: readonly ApiSection[]): readonly ApiSection[] {
  const sections = [...contextSections, ...EDGE_API_SECTIONS].sort((a, b) => a.order - b.order);
  for (const key of ['name', 'order'] as const) {
    const repeated = sections.find((section, index) => sections.findIndex((other) => other[key] === section[key]) !== index);
    if (repeated) throw new Error(`Two sections of the API reference have the ${key} ${repeated[key]}`);
  }
  return sections;
}
