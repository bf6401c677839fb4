import { Module } from '@nestjs/common';
import { AuditLogController } from './audit-log.controller';
import { OperatorController } from './operator.controller';
import { TenantLookup } from './tenant-lookup';

@Module({
  controllers: [OperatorController, AuditLogController],
  providers: [TenantLookup],
})
export class TenancyModule {}
