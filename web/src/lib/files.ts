// Files picked in a form, as the form sends them.
import type { UploadFile } from 'antd';

/** The files an upload picker holds (those picked in this page), for a multipart form. */
export function pickedFiles(files: UploadFile[]): File[] {
  return files.flatMap((file) => (file.originFileObj ? [file.originFileObj] : []));
}

/** The multipart form of a message with photos (an after-sales case's, a feedback's): its text,
 * its photos, and for a new case or a feedback its kind. */
export function messageForm(body: string, photos: File[], kind?: number): FormData {
  const form = new FormData();
  if (kind !== undefined) form.append('kind', String(kind));
  form.append('body', body.trim());
  for (const photo of photos) form.append('photos', photo, photo.name);
  return form;
}
