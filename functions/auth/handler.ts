import { createFamilyHandler } from '../../shared/http/family-handler';
import { dependenciesFromEnvironment, type Dependencies } from '../../shared/runtime/dependencies';
import { login } from './login';
import { forgotPassword, resetPassword } from './password-reset';
import { issueToken } from './token';

export const createHandler = (dependencies: Dependencies) =>
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

export const handler = createHandler(dependenciesFromEnvironment());
