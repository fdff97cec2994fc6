export * from './app-processes';
export * from './infrastructure';
export * from './redis-cluster';
