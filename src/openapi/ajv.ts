/**
 * One way to make a JSON Schema 2020-12 validator with formats, for the spec and the scenario format alike.
 */
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the plugin arrives wrapped once more.
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const wrapped = formatsModule as unknown as FormatsPlugin & { default?: FormatsPlugin };
const addFormats: FormatsPlugin = wrapped.default ?? wrapped;

export function createAjv(options: Options): Ajv2020 {
  return addFormats(new Ajv2020(options));
}
