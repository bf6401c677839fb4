import { Module } from '@nestjs/common';
import { LedgerController } from './ledger.controller';
import { LedgerReports } from './ledger-reports';

@Module({
  controllers: [LedgerController],
  providers: [LedgerReports],
})
export class ReportsModule {}
