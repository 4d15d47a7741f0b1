import { createFamilyHandler } from '../../shared/pipeline/family-handler';
import type { Ports } from '../../shared/runtime/dependencies';
import { login } from './login';
import { forgotPassword, resetPassword } from './password-reset';
import { issueToken } from './token';

export type AuthPorts = Ports<'store' | 'clock' | 'mailer' | 'config'> & Partial<Ports<'cors'>>;

export const createHandler = (dependencies: AuthPorts) =>
  createFamilyHandler(
    'auth',
    {
      'auth.token': issueToken(dependencies),
      'auth.login': login(dependencies),
      'auth.forgot': forgotPassword(dependencies),
      'auth.resetPassword': resetPassword(dependencies),
    },
    dependencies,
  );
