import { Module } from '@nestjs/common';
import { RuleBasedTaxEngine, TAX_ENGINE } from './tax-engine.port';
import { TaxSettingsController } from './tax-settings.controller';
import { GetTaxSettingsHandler } from './tax-settings.queries';

@Module({
  controllers: [TaxSettingsController],
  providers: [GetTaxSettingsHandler, { provide: TAX_ENGINE, useClass: RuleBasedTaxEngine }],
  exports: [TAX_ENGINE],
})
export class TaxModule {}
