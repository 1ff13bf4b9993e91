// Webhook subscriptions, read and changed by the webhooks API's handlers.
import { WebhookRepository } from '../data/webhook-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

export const webhookRepository = once(() => new WebhookRepository(documentClient(), config().tableName));
