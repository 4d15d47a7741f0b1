/** A context setting that cannot deploy: synth stops with the reason. */
export class SettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingError';
  }
}
