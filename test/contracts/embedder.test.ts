import { createLocalEmbedder } from '../../src/adapters/embedding/local-embedder.js';
import { createOpenAIEmbedder } from '../../src/adapters/embedding/openai-embedder.js';
import { startLoopbackOpenAI } from '../loopback/openai-server.js';
import { describeEmbedderContract } from './embedder.contract.js';

describeEmbedderContract('local (hashed features)', async () => ({ embedder: createLocalEmbedder(), cleanup: async () => undefined }));

describeEmbedderContract('openai (loopback server honouring encoding_format)', async () => {
  const server = await startLoopbackOpenAI({ dimension: 96 });
  // A small batch so the contract's larger inputs span several requests.
  const embedder = await createOpenAIEmbedder({ apiKey: 'sk-loopback', baseURL: server.url, model: 'text-embedding-3-small', dimensions: 96, batchSize: 16, maxRetries: 0 });
  return { embedder, cleanup: () => server.close() };
});
