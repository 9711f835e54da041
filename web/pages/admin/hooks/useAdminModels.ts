// The Models section's query (GET /api/admin/models) and its mutations (save, delete, list, test, assign).
import {
  type QueryClient,
  type UseMutationResult,
  type UseQueryResult,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import type {
  ModelAssignments,
  ModelConnection,
  ModelConnectionInput,
  ModelsOverview,
  ModelTestResult,
} from "../../../../common/models-api";
import {
  assignModel,
  createModelConnection,
  deleteModelConnection,
  getModelsOverview,
  listModelIds,
  type ModelAssignment,
  type ModelListSource,
  testModelConnection,
  updateModelConnection,
} from "../../../api/models";
import { useAdminQuery } from "./adminQueries";

/** The overview's query key, under the admin console's ["admin"]. */
export const MODELS_QUERY_KEY = ["admin", "models"] as const;

/** The overview again, and whether chats can answer (a default connection may have come or gone). */
async function reload(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: MODELS_QUERY_KEY });
  await queryClient.invalidateQueries({ queryKey: ["chat-capabilities"] });
}

/** Everything the Models section shows: connections, presets, assignments, the server's GGUF files. */
export function useAdminModels(): UseQueryResult<ModelsOverview> {
  return useAdminQuery(MODELS_QUERY_KEY, getModelsOverview);
}

/** What the form saves: a new connection (no id) or a stored one's changes. */
export interface ModelSave {
  id?: string;
  input: ModelConnectionInput;
}

/**
 * Creates or updates a connection. Silent: the form shows a refusal's sentence next to itself
 * instead of a toast.
 */
export function useSaveModelConnection(): UseMutationResult<ModelConnection, Error, ModelSave> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }) =>
      id === undefined ? createModelConnection(input) : updateModelConnection(id, input),
    meta: { silent: true },
    onSuccess: () => reload(queryClient),
  });
}

/** Deletes a connection (its assignments are cleared by the server); a refusal is a toast. */
export function useDeleteModelConnection(): UseMutationResult<void, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteModelConnection, onSettled: () => reload(queryClient) });
}

/** The model ids an endpoint offers (the form's "Load models"); silent, the form shows the failure. */
export function useListModelIds(): UseMutationResult<string[], Error, ModelListSource> {
  return useMutation({ mutationFn: listModelIds, meta: { silent: true } });
}

/** One timed test reply of a stored connection; silent, the row shows the failure. */
export function useTestModelConnection(): UseMutationResult<ModelTestResult, Error, string> {
  return useMutation({ mutationFn: testModelConnection, meta: { silent: true } });
}

/** Points the default, a plan or a preset character at a connection; the answer replaces the shown assignments. */
export function useAssignModel(): UseMutationResult<ModelAssignments, Error, ModelAssignment> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignModel,
    onSuccess: async (assignments) => {
      queryClient.setQueryData<ModelsOverview>(MODELS_QUERY_KEY, (overview) =>
        overview === undefined ? overview : { ...overview, assignments },
      );
      await queryClient.invalidateQueries({ queryKey: ["chat-capabilities"] });
    },
    onError: () => reload(queryClient),
  });
}
