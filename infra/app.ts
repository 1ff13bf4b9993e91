// The CDK app: one stack per configured tenant, each checked against cdk-nag's AwsSolutions rules.
// `npx cdk synth` runs it offline; `npx cdk deploy School-<id>` deploys one tenant.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { addTenantStacks } from './school-stack';
import { tenants } from './tenants';

const app = new App();
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
addTenantStacks(app, tenants);
app.synth();
