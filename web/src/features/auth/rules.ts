// The account rules of the registration and password forms, as antd Form rules: the engine's
// `checkUsername` and `checkPassword`, the very functions the origin answers its 422 with, so
// that the browser refuses `1abc` or `aaaaaa` with the server's own words. The origin trims
// form fields before it checks them; so do these.
import type { FormRule } from 'antd';
import { checkPassword, checkUsername } from '@/lib/engine';

/** What is wrong with a username as typed, or `undefined`. */
export function usernameProblem(value: unknown): string | undefined {
  return checkUsername(typeof value === 'string' ? value.trim() : '');
}

/** What is wrong with a password as typed, or `undefined`. */
export function passwordProblem(value: unknown): string | undefined {
  return checkPassword(typeof value === 'string' ? value.trim() : '');
}

/** A Form rule that refuses a value with the problem `check` finds in it. */
function ruleOf(check: (value: unknown) => string | undefined): FormRule {
  return {
    required: true,
    validator: async (_, value: unknown) => {
      const problem = check(value);
      if (problem) throw new Error(problem);
    },
  };
}

/** 用户名: 4-20 letters, digits or underscores, starting with a letter (请填写用户名 when empty). */
export const usernameRule: FormRule = ruleOf(usernameProblem);

/** 密码: 6-20 characters with letters and digits (请填写密码 when empty). */
export const passwordRule: FormRule = ruleOf(passwordProblem);
