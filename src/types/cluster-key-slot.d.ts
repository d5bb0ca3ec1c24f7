/** The Redis Cluster hash slot of a key (CRC16, hash tags honoured); ioredis's own slot function. */
declare module 'cluster-key-slot' {
  function generate(key: string): number;
  export = generate;
}
