import type { ContextManifest } from '@tally/runtime';
import { ledgerProjection } from './ledger.projection';
import { ReportsModule } from './reports.module';
import { REPORTS_SECTION } from './reports.api-sections';

/** Reports over the other contexts' events: the double-entry ledger of the money events. */
export const reportsContext: ContextManifest = {
  name: 'reports',
  apiSections: [REPORTS_SECTION],
  module: ReportsModule,
  projections: [ledgerProjection],
};
