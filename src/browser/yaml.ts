/** `text/yaml.ts` in the browser build: the YAML library bundled in, as there is no `require` to load it late. */
import * as Yaml from 'yaml';

export function yaml(): typeof Yaml {
  return Yaml;
}
