import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { PaymentFollowUps } from '../payment-follow-ups';
import { PAYMENT_ACTION_PATH } from '../payment-action-links';
import { ActionPageQuery } from './action-page.query';

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'private, no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The page `next_action.url` sends the customer to: outside `/v1`, for a browser, the signed link
 * its only credential (403 once expired or changed). A browser page, not an API operation, so it
 * is not in the OpenAPI document.
 */
@Controller(PAYMENT_ACTION_PATH.slice(1))
@ApiExcludeController()
export class PaymentActionPageController {
  constructor(
    private readonly queries: QueryBus,
    private readonly followUps: PaymentFollowUps,
  ) {}

  @Get(':payment_id')
  async show(@Param('payment_id') paymentId: string, @Query() link: Record<string, unknown>, @Req() request: Request, @Res() response: Response): Promise<void> {
    const { html, policy } = await this.queries.execute(new ActionPageQuery(paymentId, link, queryOf(request)));
    response.status(200).set({ ...PAGE_HEADERS, 'Content-Security-Policy': policy }).send(html);
  }

  @Post(':payment_id/complete')
  @HttpCode(303)
  complete(@Param('payment_id') paymentId: string, @Query() link: Record<string, unknown>, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.answer(paymentId, link, request, response, 'succeeded');
  }

  @Post(':payment_id/fail')
  @HttpCode(303)
  fail(@Param('payment_id') paymentId: string, @Query() link: Record<string, unknown>, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.answer(paymentId, link, request, response, 'failed');
  }

  /** Records the customer's answer, then sends the browser on: to the merchant's return URL, else back to the page, which shows the outcome. */
  private async answer(paymentId: string, link: Record<string, unknown>, request: Request, response: Response, outcome: 'succeeded' | 'failed'): Promise<void> {
    const { context, payment, after } = await this.queries.execute(new ActionPageQuery(paymentId, link, queryOf(request)));
    if (payment.status === 'requires_action') await this.followUps.completeAction(context, paymentId, outcome);
    response.redirect(303, after);
  }
}

const queryOf = (request: Request): string => request.originalUrl.split('?')[1] ?? '';
