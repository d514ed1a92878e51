import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AcceleratorType, MachineType, NotebookEnvironment, Zone } from '@hdp/contract';

/** The catalogue shipped with the platform, used unless WORKBENCH_CATALOGUE_FILE names another. */
export const DEFAULT_CATALOGUE_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'default-catalogue.json');

const Name = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lower-case letters, digits and hyphens, at most 63');

/**
 * The catalogue file: what notebooks may run on (zones, machine types, accelerators per zone) and
 * in (environments). Field names are those the API answers, so the file reads like the answers.
 */
const CatalogueFile = z
  .object({
    zones: z.array(Zone.extend({ name: Name })).min(1),
    machine_types: z
      .array(MachineType.extend({ name: Name, zones: z.array(Name).optional().describe('the zones it is offered in; all when absent') }))
      .min(1),
    accelerator_types: z.array(AcceleratorType.omit({ max_count: true }).extend({ name: Name, max_count_by_zone: z.record(Name, z.number().int().min(1)) })),
    environments: z.array(NotebookEnvironment.extend({ id: Name })).min(1),
  })
  .strict()
  .superRefine((file, ctx) => {
    const zones = new Set(file.zones.map((z) => z.name));
    const problem = (pathTo: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path: pathTo, message });
    const oneDefault = (items: { is_default: boolean }[], key: string) => {
      if (items.filter((i) => i.is_default).length !== 1) problem([key], 'exactly one must have is_default: true');
    };
    const unique = (items: { name?: string; id?: string }[], key: string) => {
      const seen = new Set<string>();
      items.forEach((item, i) => {
        const name = item.name ?? item.id!;
        if (seen.has(name)) problem([key, i], `"${name}" is given twice`);
        seen.add(name);
      });
    };
    oneDefault(file.zones, 'zones');
    oneDefault(file.machine_types, 'machine_types');
    oneDefault(file.environments, 'environments');
    unique(file.zones, 'zones');
    unique(file.machine_types, 'machine_types');
    unique(file.accelerator_types, 'accelerator_types');
    unique(file.environments, 'environments');
    file.machine_types.forEach((m, i) =>
      m.zones?.forEach((zone, j) => zones.has(zone) || problem(['machine_types', i, 'zones', j], `no zone is named "${zone}"`)),
    );
    file.accelerator_types.forEach((a, i) =>
      Object.keys(a.max_count_by_zone).forEach((zone) => zones.has(zone) || problem(['accelerator_types', i, 'max_count_by_zone', zone], `no zone is named "${zone}"`)),
    );
  });
type CatalogueFile = z.infer<typeof CatalogueFile>;

export type ZoneEntry = z.infer<typeof Zone>;
export type MachineTypeEntry = z.infer<typeof MachineType>;
export type AcceleratorTypeEntry = z.infer<typeof AcceleratorType>;
export type EnvironmentEntry = z.infer<typeof NotebookEnvironment>;

/** The compute catalogue as the API answers it. */
export class ComputeCatalogue {
  private constructor(private readonly file: CatalogueFile) {}

  /** Reads and checks a catalogue file; a bad one stops start-up with the file and the field named. */
  static load(file: string): ComputeCatalogue {
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`Invalid configuration: WORKBENCH_CATALOGUE_FILE ${file} cannot be read as JSON: ${(error as Error).message}`);
    }
    const parsed = CatalogueFile.safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ');
      throw new Error(`Invalid configuration: WORKBENCH_CATALOGUE_FILE ${file}: ${problems}`);
    }
    return new ComputeCatalogue(parsed.data);
  }

  zones(): ZoneEntry[] {
    return this.file.zones;
  }

  hasZone(zone: string): boolean {
    return this.file.zones.some((z) => z.name === zone);
  }

  machineTypes(zone: string): MachineTypeEntry[] {
    return this.file.machine_types.filter((m) => !m.zones || m.zones.includes(zone)).map(({ zones: _zones, ...m }) => m);
  }

  acceleratorTypes(zone: string): AcceleratorTypeEntry[] {
    return this.file.accelerator_types.flatMap((a) => {
      const max = a.max_count_by_zone[zone];
      return max ? [{ name: a.name, description: a.description, max_count: max }] : [];
    });
  }

  environments(): EnvironmentEntry[] {
    return this.file.environments;
  }
}
