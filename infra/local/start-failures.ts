import type { CatalogProblem } from '../../shared/catalog/catalog-validation';

// what stops a local service before it serves: `npm start` prints each as one line and exits 1

export class JavaMissingError extends Error {
  constructor() {
    super(
      'Java 17 or newer is required for DynamoDB Local: install it (Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless) and run again.',
    );
    this.name = 'JavaMissingError';
  }
}

export class CatalogRejectedError extends Error {
  constructor(
    file: string,
    readonly problems: CatalogProblem[],
  ) {
    super(`The catalog ${file} is invalid: ${problems.map((p) => `${p.path}: ${p.reason}`).join('; ')}`);
    this.name = 'CatalogRejectedError';
  }
}

export class PortInUseError extends Error {
  constructor(host: string, port: number) {
    const another = port === 65535 ? 3001 : port + 1;
    super(
      `Port ${port} on ${host} is already in use: stop what holds it, or start on another port: npm start -- --port ${another}`,
    );
    this.name = 'PortInUseError';
  }
}
