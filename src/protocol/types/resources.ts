/** Resources: list, templates, read, subscriptions. */
import type { Annotations, CacheableResult, Icon, Meta, PaginatedResult } from "./base.js";
import type { ResourceContents } from "./content.js";

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ListResourcesResult extends PaginatedResult, CacheableResult {
  resources: Resource[];
}

export interface ListResourceTemplatesResult extends PaginatedResult, CacheableResult {
  resourceTemplates: ResourceTemplate[];
}

export interface ReadResourceResult extends CacheableResult {
  contents: ResourceContents[];
}

export interface ReadResourceParams {
  uri: string;
  _meta?: Meta;
}

/** `resources/subscribe` and `resources/unsubscribe` (legacy). */
export interface SubscribeParams {
  uri: string;
  _meta?: Meta;
}

/** `notifications/resources/updated`. */
export interface ResourceUpdatedParams {
  uri: string;
  _meta?: Meta;
  [key: string]: unknown;
}
