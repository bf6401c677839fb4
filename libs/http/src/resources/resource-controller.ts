import { applyDecorators, Controller, Get, Inject, Param, Query, Res, UseInterceptors, type NestInterceptor, type Type } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { HeadersObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { Response } from 'express';
import type { Command, Event } from '@tally/kernel';
import type { RequestContext } from '@tally/cells';
import { ResourceReads, type ApiSection, type ListPage, type Resource, type Retrieved, type ResourceDoc } from '@tally/runtime';
import { Ctx } from '../auth/context.decorator';
import { withRevision } from '../etag';
import { API_KEY_AUTH, ApiAuthenticated } from '../openapi/api-authenticated.decorator';
import { ApiListResponse } from '../openapi/api-list-response.decorator';
import { ApiProblemResponses } from '../openapi/api-problem-responses.decorator';
import { ApiRetrieve } from '../openapi/api-retrieve.decorator';
import { ApiTag } from '../openapi/api-tags';
import { API_KEY_PROBLEMS, LIST_PROBLEMS, mergeProblemCodes, type ProblemCodes } from '../openapi/problem-codes';

/** How a resource's list and retrieve are reached and documented. */
export interface ResourceRoutes<R extends ResourceDoc = ResourceDoc> {
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
  /** Its list; absent, it has none. */
  list?: { summary: string; description: string; of?: ParentList };
  retrieve: { summary: string; description: string; problems: ProblemCodes };
  /**
   * A resource there is one of per tenant and environment (the tax settings): retrieved at `path`
   * itself, and read as `absent` makes it until it is first written.
   */
  single?: { idOf(context: RequestContext): string; absent(context: RequestContext): R };
  /** The retrieve's ETag header, for a resource whose writes take `If-Match`. */
  etag?: HeadersObject;
  /** A check every read makes first (a test clock is the sandbox's only), and what it answers. */
  guard?: { check(context: RequestContext): void; problems: ProblemCodes };
  /** Operation ids are `<operations>_list` and `<operations>_retrieve`: those of the controller the routes were first written in. */
  operations: string;
  /** Interceptors of the resource's answers, as its other routes have them (an invoice's signed `pdf_url`). */
  interceptors?: readonly Type<NestInterceptor>[];
}

/** A list of one parent's resources only, under the parent's path (a customer's payment methods). */
export interface ParentList {
  /** The list's path, naming the parent: `v1/customers/:id/payment-methods`. */
  path: string;
  /** The path parameter naming the parent. */
  param: string;
  /** The parent: an id that names none answers its not-found error. */
  parent: Resource<any, any, any, ResourceDoc>;
  /** The resource's field that holds its parent's id. */
  field: string;
  problems: ProblemCodes;
}

/** The controller of a resource's two reads, its list and its retrieve (with `as_of`), from its definition. */
export function resourceController<S, C extends Command, E extends Event, R extends ResourceDoc>(resource: Resource<S, C, E, R>, routes: ResourceRoutes<R>): Type {
  const { guard, etag, single } = routes;
  const problems = guard?.problems ?? {};
  const parent = routes.list?.of;
  const retrieveProblems: ProblemCodes = Object.fromEntries(mergeProblemCodes([problems, routes.retrieve.problems]));

  @Controller()
  @ApiAuthenticated(API_KEY_AUTH)
  @ApiTag(routes.tag)
  @UseInterceptors(...(routes.interceptors ?? []))
  class ResourceController {
    constructor(@Inject(ResourceReads) private readonly reads: ResourceReads) {}

    async list(context: RequestContext, parentId: string | undefined, params: Record<string, unknown>): Promise<ListPage<R>> {
      guard?.check(context);
      if (!parent || parentId === undefined) return this.reads.list(resource, context, params);
      await this.reads.retrieve(parent.parent, context, parentId);
      return this.reads.list(resource, context, params, { [parent.field]: parentId });
    }

    async retrieve(context: RequestContext, key: string | undefined, asOf: unknown, response: Response): Promise<R> {
      guard?.check(context);
      const found = single ? await this.single(context, single, asOf) : await this.reads.retrieve(resource, context, key ?? '', asOf);
      return etag ? withRevision(response, found).resource : found.resource;
    }

    private async single(context: RequestContext, { idOf, absent }: NonNullable<ResourceRoutes<R>['single']>, asOf: unknown): Promise<Retrieved<R>> {
      return (await this.reads.find(resource, context, idOf(context), asOf)) ?? { resource: absent(context), revision: -1 };
    }
  }

  const param = routes.param ?? 'id';
  if (routes.list) {
    route(ResourceController, 'list', [[Ctx(), Object], parent && [Param(parent.param), String], [Query(), Object]], [
      Get(parent?.path ?? routes.path),
      ApiOperation({ summary: routes.list.summary, description: routes.list.description, operationId: `${routes.operations}_list` }),
      ApiListResponse(routes.type, resource.list),
      ApiProblemResponses(API_KEY_PROBLEMS, LIST_PROBLEMS, problems, parent?.problems ?? {}),
    ]);
  }
  route(ResourceController, 'retrieve', [[Ctx(), Object], single ? undefined : [Param(param), String], [Query('as_of'), Object], [Res({ passthrough: true }), Object]], [
    Get(single ? routes.path : `${routes.path}/:${param}`),
    ApiRetrieve({ noun: routes.noun, ...routes.retrieve, type: routes.type, headers: etag, problems: retrieveProblems, operationId: `${routes.operations}_retrieve` }),
  ]);
  Object.defineProperty(ResourceController, 'name', { value: `${routes.operations}Reads` });
  return ResourceController;
}

/** A route's parameter: how it is taken, and its type as the compiler would record it for a decorated method (the OpenAPI document reads it). */
type RouteParameter = readonly [ParameterDecorator, StringConstructor | ObjectConstructor];

/** Makes a method a route: its parameters (by position; undefined: not taken) and its route and documentation. */
function route(controller: Type, method: string, parameters: readonly (RouteParameter | undefined)[], decorators: readonly MethodDecorator[]): void {
  const target = controller.prototype as object;
  parameters.forEach((parameter, index) => parameter?.[0](target, method, index));
  Reflect.defineMetadata('design:paramtypes', parameters.map((parameter) => parameter?.[1] ?? Object), target, method);
  applyDecorators(...decorators)(target, method, Object.getOwnPropertyDescriptor(target, method)!);
}
