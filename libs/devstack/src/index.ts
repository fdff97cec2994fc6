export * from './app-processes';
export * from './infrastructure';
