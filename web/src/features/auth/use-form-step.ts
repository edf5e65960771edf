// Running a step of the registration and password forms, so that its 422 field errors land on
// the form's fields.
import { useState } from 'react';
import type { FormInstance } from 'antd';
import { fieldErrors } from '@/lib/field-errors';

/** Runs a form's step: `busy` while it runs; a 422's field errors go onto the form. */
export function useFormStep(form: FormInstance) {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      form.setFields(fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
