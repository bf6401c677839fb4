import { Module } from '@nestjs/common';
import { CustomerWallets } from './customer-wallets';
import { WalletOperations } from './wallet-operations';
import { WalletTransactionList } from './wallet-transaction-list';
import { WalletTurns } from './wallet-turns';
import { CustomerWalletsController, WalletReadsController, WalletsController } from './wallets.controller';

@Module({
  controllers: [WalletReadsController, WalletsController, CustomerWalletsController],
  providers: [CustomerWallets, WalletOperations, WalletTransactionList, WalletTurns],
  exports: [CustomerWallets],
})
export class WalletsModule {}
