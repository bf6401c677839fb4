import { Module } from '@nestjs/common';
import { CustomerWallets } from './customer-wallets';

@Module({
  providers: [CustomerWallets],
  exports: [CustomerWallets],
})
export class WalletsModule {}
