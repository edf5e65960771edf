// Files picked in a form, as the form sends them.
import type { UploadFile } from 'antd';
import { multipart } from '@/api/requests';
import type { CaseForm, CaseMessage, FeedbackForm } from '@/api/types';

/** The files an upload picker holds (those picked in this page), for a multipart form. */
export function pickedFiles(files: UploadFile[]): File[] {
  return files.flatMap((file) => (file.originFileObj ? [file.originFileObj] : []));
}

/** The multipart form of a message with photos: its text and photos (a reply on an after-sales
 * case, `CaseMessage`), and for a new case or a feedback its kind (`CaseForm`, `FeedbackForm`). */
export function messageForm(body: string, photos: File[], kind?: number): FormData {
  const message = { body: body.trim(), photos };
  if (kind === undefined) return multipart<CaseMessage, 'photos'>(message);
  return multipart<CaseForm & FeedbackForm, 'photos'>({ kind, ...message });
}
