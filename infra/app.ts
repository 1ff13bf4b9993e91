// The CDK app: one stack per configured tenant, each checked against cdk-nag's AwsSolutions rules.
// `npx cdk synth` runs it offline; `npx cdk deploy School-<id>` deploys one tenant.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { SchoolStack, stackName } from './school-stack';
import { tenants } from './tenants';

const app = new App();
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
for (const tenant of tenants) {
  new SchoolStack(app, stackName(tenant.id), {
    tenant,
    env: { account: tenant.account, region: tenant.region },
    description: `School API of tenant ${tenant.id} (${tenant.name})`,
  });
}
app.synth();
