import { Controller, Get, Inject, Param, Query, Res, UseInterceptors, type NestInterceptor, type Type } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { HeadersObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { Response } from 'express';
import type { Command, Event } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { ResourceReads, type ApiSection, type ListPage, type Resource, type ResourceDoc } from '@tally/runtime';
import { Ctx } from '../auth/context.decorator';
import { withRevision } from '../etag';
import { API_KEY_AUTH, ApiAuthenticated } from '../openapi/api-authenticated.decorator';
import { ApiListResponse } from '../openapi/api-list-response.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses.decorator';
import { ApiRetrieve } from '../openapi/api-retrieve.decorator';
import { ApiTag } from '../openapi/api-tags';
import { API_KEY_PROBLEMS, LIST_PROBLEMS, mergeProblemCodes, type ProblemCodes } from '../openapi/problem-codes';

/** How a resource's list and retrieve are reached and documented. */
export interface ResourceRoutes {
  /** The routes' path, `v1/customers`: the list is `GET <path>`, the retrieve `GET <path>/{<param>}`. */
  path: string;
  /** The path parameter naming one (`id` unless the resource is named otherwise too: a plan by its code). */
  param?: string;
  /** The section of the reference the routes are filed under, as the context declares it. */
  tag: ApiSection;
  /** What the resource is called in prose: `customer`, `usage alert`. */
  noun: string;
  /** The response's documented shape. */
  type: Type;
  list: { summary: string; description: string };
  retrieve: { summary: string; description: string; problems: ProblemCodes };
  /** The retrieve's ETag header, for a resource whose writes take `If-Match`. */
  etag?: HeadersObject;
  /** A check every read makes first (a test clock is the sandbox's only), and what it answers. */
  guard?: { check(context: RequestContext): void; problems: ProblemCodes };
  /** Operation ids are `<operations>_list` and `<operations>_retrieve`: those of the controller the routes were first written in. */
  operations: string;
  /** Interceptors of the resource's answers, as its other routes have them (an invoice's signed `pdf_url`). */
  interceptors?: readonly Type<NestInterceptor>[];
}

/** The controller of a resource's two reads, its list and its retrieve (with `as_of`), from its definition. */
export function resourceController<S, C extends Command, E extends Event, R extends ResourceDoc>(resource: Resource<S, C, E, R>, routes: ResourceRoutes): Type {
  const { guard, etag } = routes;
  const problems = guard?.problems ?? {};
  const retrieveProblems: ProblemCodes = Object.fromEntries(mergeProblemCodes([problems, routes.retrieve.problems]));

  @Controller(routes.path)
  @ApiAuthenticated(API_KEY_AUTH)
  @ApiTag(routes.tag)
  @UseInterceptors(...(routes.interceptors ?? []))
  class ResourceController {
    constructor(@Inject(ResourceReads) private readonly reads: ResourceReads) {}

    @Get()
    @ApiOperation({ ...routes.list, operationId: `${routes.operations}_list` })
    @ApiListResponse(routes.type, resource.list)
    @ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS, problems)
    list(@Ctx() context: RequestContext, @Query() params: Record<string, unknown>): Promise<ListPage<R>> {
      guard?.check(context);
      return this.reads.list(resource, context, params);
    }

    @Get(`:${routes.param ?? 'id'}`)
    @ApiRetrieve({ noun: routes.noun, ...routes.retrieve, type: routes.type, headers: etag, problems: retrieveProblems, operationId: `${routes.operations}_retrieve` })
    async retrieve(@Ctx() context: RequestContext, @Param(routes.param ?? 'id') key: string, @Query('as_of') asOf: unknown, @Res({ passthrough: true }) response: Response): Promise<R> {
      guard?.check(context);
      const found = await this.reads.retrieve(resource, context, key, asOf);
      return etag ? withRevision(response, found).resource : found.resource;
    }
  }
  Object.defineProperty(ResourceController, 'name', { value: `${routes.operations}Reads` });
  return ResourceController;
}
