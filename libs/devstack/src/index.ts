export * from './app-processes';
