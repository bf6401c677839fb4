/**
 * The named fields of a resource type without its `[field: string]: unknown` index signature, so
 * that a response class can `implements` it and the compiler names any field it does not document.
 */
export type KnownFields<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
