export * from './config';
export * from './logger';
export * from './nest-logger';
export * from './health';
export * from './metrics';
export * from './shutdown';
export * from './secret-box';
export * from './host-resolver';
