// What a call sends, as the origin's OpenAPI document declares it (docs/api.md, "The OpenAPI
// document"): the generated types (./types.ts) carry every request body and query, so the web
// writes none by hand. A form body is its schema by name (`CartAddForm`, `OrderRequest`); a
// query is `QueryOf<'/api/order'>`; a multipart body is built by `multipart` from its schema. A
// field the origin renames or retypes then fails `tsc` here.
import type { paths } from './types';

type Method = 'get' | 'post' | 'put' | 'delete';

/** The paths that answer `M`. */
export type PathWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends { parameters: unknown } ? P : never }[keyof paths];

/** The query string the call `M path` reads (a GET by default), its fields as the document names them. */
export type QueryOf<P extends PathWith<M>, M extends Method = 'get'> = NonNullable<NonNullable<paths[P][M]>['parameters']['query']>;

/** The multipart body of the upload `POST path`, its file fields typed as strings (binary). */
export type UploadOf<P extends PathWith<'post'>> =
  NonNullable<paths[P]['post']> extends { requestBody: { content: { 'multipart/form-data': infer B } } } ? B : never;

/** A multipart body's fields as the browser has them: its file fields `Files` (strings in the
 * document, binary) hold a file, or a list of files; the others are as the document says. */
export type MultipartFields<T, Files extends keyof T> = {
  [K in keyof T]: K extends Files ? (T[K] extends readonly unknown[] ? Blob[] : Blob) : T[K];
};

/** The multipart form of an upload: every field by its document name, a list as repeated keys,
 * a file with its name; absent fields are left out. */
export function multipart<T, Files extends keyof T>(fields: MultipartFields<T, Files>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (item instanceof File) form.append(key, item, item.name);
      else if (item instanceof Blob) form.append(key, item);
      else form.append(key, String(item));
    }
  }
  return form;
}
