// Prints the directory of the cloud assembly synthesized from the current sources, for CI's cfn-lint:
// the one the deployed-bundles test kept when it ran over these sources, a new synth otherwise.
import { synthesizedAssembly } from './synthesize';

process.stdout.write(`${await synthesizedAssembly()}\n`);
