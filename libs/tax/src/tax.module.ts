import { Module } from '@nestjs/common';
import { RuleBasedTaxEngine, TAX_ENGINE } from './tax-engine.port';
import { TaxSettingsController } from './tax-settings.controller';

@Module({
  controllers: [TaxSettingsController],
  providers: [{ provide: TAX_ENGINE, useClass: RuleBasedTaxEngine }],
  exports: [TAX_ENGINE],
})
export class TaxModule {}
