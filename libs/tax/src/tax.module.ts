import { Module } from '@nestjs/common';
import { RuleBasedTaxEngine, TAX_ENGINE } from './tax-engine.port';
import { TaxSettingsController, TaxSettingsReadsController } from './tax-settings.controller';

@Module({
  controllers: [TaxSettingsReadsController, TaxSettingsController],
  providers: [{ provide: TAX_ENGINE, useClass: RuleBasedTaxEngine }],
  exports: [TAX_ENGINE],
})
export class TaxModule {}
