// Files picked in a form, as the form sends them.
import type { UploadFile } from 'antd';

/** The files an upload picker holds (those picked in this page), for a multipart form. */
export function pickedFiles(files: UploadFile[]): File[] {
  return files.flatMap((file) => (file.originFileObj ? [file.originFileObj] : []));
}
