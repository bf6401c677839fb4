import { Module } from '@nestjs/common';
import { RuleBasedTaxEngine, TAX_ENGINE } from './tax-engine.port';
import { TaxSettingsController } from './tax-settings.controller';
import { taxSettingsHandlers } from './tax-settings.handlers';

@Module({
  controllers: [TaxSettingsController],
  providers: [...taxSettingsHandlers, { provide: TAX_ENGINE, useClass: RuleBasedTaxEngine }],
  exports: [TAX_ENGINE],
})
export class TaxModule {}
